/*
 * Notices of written rows to the other processes (docs/storage.md, "Cached
 * rows"): each process drops its copy of a row when it hears that another
 * wrote it. They are sent once the writing transaction has committed, all
 * rows written meanwhile in one NOTIFY, and not inside the transaction:
 * PostgreSQL makes a transaction that notifies take the notify queue's lock
 * at commit and hold it until the commit is done, so every writing
 * transaction of every process would commit one at a time. On a PostgreSQL
 * server they go as a transaction of their own in the next group of whole
 * transactions (grouped-commits.ts), which waits for no disk (it tells of
 * commits already durable): the lock is held for a moment, and a notice
 * needs no connection of its own. The price: another process may serve its
 * copy for the time of one more message, and up to the copies' lifetime
 * (`rowCacheMs`, 5 s) if this process dies between the commit and the
 * notice.
 */

/** A row a transaction wrote: its table and id. */
export type WrittenRow = readonly [table: string, id: string];

/** The notice that drops every copy. */
export const ALL_ROWS = "*";

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7_900;

/**
 * Sends notices of rows written, one at a time (the listening connection
 * takes one query at a time); what is written while one goes waits and goes
 * together in the next. "Every row" (`all`) goes through the same line.
 */
export class RowNotices {
  private waiting: WrittenRow[] = [];
  /** Callers of `all` waiting for the notice of every row. */
  private askedAll: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  private sending: Promise<void> | null = null;

  /** `send` NOTIFYs one payload; a failed notice of rows is given up (the copies elsewhere expire within their lifetime). */
  constructor(private readonly send: (payload: string) => Promise<void>) {}

  /** Tells the other processes that `rows` were written (a committed transaction's). */
  add(rows: readonly WrittenRow[]): void {
    if (rows.length === 0) return;
    for (const row of rows) this.waiting.push(row);
    this.sending ??= this.drain();
  }

  /** Tells the other processes that every row may have changed (clear, restore, load); rejects if that notice could not be sent. */
  all(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.askedAll.push({ resolve, reject });
      this.sending ??= this.drain();
    });
  }

  /** Resolves once every notice asked for has been sent (or given up). */
  async idle(): Promise<void> {
    while (this.sending !== null) await this.sending;
  }

  private async drain(): Promise<void> {
    try {
      while (this.askedAll.length > 0 || this.waiting.length > 0) {
        if (this.askedAll.length > 0) {
          const asked = this.askedAll;
          this.askedAll = [];
          // Every row covers the rows waiting too.
          this.waiting = [];
          await this.send(ALL_ROWS).then(() => asked.forEach((a) => a.resolve()), (error: unknown) => asked.forEach((a) => a.reject(error)));
          continue;
        }
        const rows = this.waiting;
        this.waiting = [];
        for (const payload of payloadsOf(rows)) await this.send(payload).catch(() => undefined);
      }
    } finally {
      this.sending = null;
    }
  }
}

/** The payloads telling of `rows`: JSON lists of [table, id], each under PostgreSQL's limit; "every row" when one alone would not fit. */
export function payloadsOf(rows: readonly WrittenRow[]): string[] {
  const payloads: string[] = [];
  let batch: string[] = [];
  let bytes = 2;
  for (const row of new Set(rows.map((row) => JSON.stringify(row)))) {
    const size = Buffer.byteLength(row) + 1;
    if (size + 2 > MAX_PAYLOAD_BYTES) return [ALL_ROWS];
    if (bytes + size > MAX_PAYLOAD_BYTES) {
      payloads.push(`[${batch.join(",")}]`);
      batch = [];
      bytes = 2;
    }
    batch.push(row);
    bytes += size;
  }
  if (batch.length > 0) payloads.push(`[${batch.join(",")}]`);
  return payloads;
}

/** The rows a notice tells of; null for every row (`ALL_ROWS`, or a payload this version cannot read: dropping everything is safe). */
export function readNotice(payload: string): WrittenRow[] | null {
  if (payload === ALL_ROWS) return null;
  try {
    const rows = JSON.parse(payload) as unknown;
    if (Array.isArray(rows) && rows.every((row) => Array.isArray(row) && row.length === 2 && typeof row[0] === "string" && typeof row[1] === "string")) {
      return rows as WrittenRow[];
    }
  } catch {
    // not ours: below
  }
  return null;
}
