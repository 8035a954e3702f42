/*
 * The statements one connection has prepared (docs/storage.md, "Prepared
 * statements"). A statement parsed, analysed and planned anew each time
 * costs the database most of what it spends on the adapter's short
 * statements. So each statement with parameters goes by name with its
 * values (sql-statement.ts), prepared the first time the connection sends
 * it, in the same message: still one message, and planned once per
 * connection (or per execution, where PostgreSQL finds a custom plan
 * better).
 *
 * A prepared statement is not undone by a rollback, and a message that
 * fails leaves it unknown which of its statements were prepared: those
 * names are dropped and never used again, so a name never meets an old
 * statement of the same name. The statements a connection holds are
 * bounded: once `max` names were given out, the next message begins with
 * `DEALLOCATE ALL`, and the connection prepares again what it sends.
 *
 * A name holds a hash of its text: behind a pooler that hands each
 * transaction to any server connection (PgBouncer in transaction mode, if
 * the `prepare` option was left on), a statement run by name can only find
 * its own statement or none. None, or a prepare of a name already there,
 * fails the transaction with a conflict the adapter runs again
 * (retry-policy.ts), after `lost` made the connection prepare everything
 * anew.
 */
import { isLostStatement } from "./retry-policy.js";
import { bindValue, unnamed, type Sql } from "./sql-statement.js";

/** Names given out per connection before it deallocates them all. */
export const MAX_PREPARED = 256;

/** Parameters of the longest statement prepared: longer ones (id lists of a batch read, each length its own text) go unnamed. */
const MAX_PREPARED_PARAMS = 32;

/** One connection's prepared statements (a class: one per connection, used on every statement). */
export class PreparedStatements {
  private readonly names = new Map<string, string>();
  /** Names given out since the last DEALLOCATE ALL, the dropped ones included. */
  private given = 0;
  /** The next name's number: never used twice on the connection. */
  private next = 0;
  constructor(private readonly max = MAX_PREPARED) {}

  /**
   * Appends to `statements` what runs `text` with `params` (`$1…`): the
   * statement by name with its values (prepared first, the first time), or
   * the text with its parameters written in (a long list of them). A
   * statement of no parameters (a BEGIN, a COMMIT) is prepared too: it
   * then goes with no text to parse. A statement prepared now goes into
   * `fresh`: `forget` it if the message fails. `rows`: false when nothing
   * reads the statement's rows.
   */
  write(statements: Sql[], text: string, params: readonly unknown[], fresh: string[], rows = true): void {
    if (params.length > MAX_PREPARED_PARAMS) {
      statements.push(unnamed(text, params, rows));
      return;
    }
    const values = params.length === 0 ? [] : params.map(bindValue);
    let name = this.names.get(text);
    if (name !== undefined) {
      statements.push({ name, text, prepare: false, values, rows });
      return;
    }
    // DEALLOCATE takes a snapshot: before a BEGIN in the same message, it would make the BEGIN's isolation level
    // fail (25001). Only a statement with parameters, which comes after its transaction's BEGIN, sets it off.
    if (this.given >= this.max && params.length > 0) {
      statements.push("DEALLOCATE ALL");
      this.names.clear();
      this.given = 0;
    }
    name = `pf_${textHash(text)}_${this.next++}`;
    this.given++;
    this.names.set(text, name);
    fresh.push(text);
    statements.push({ name, text, prepare: true, values, rows });
  }

  /** The database lost a statement or holds one already (a pooler in between): prepare everything anew, after DEALLOCATE ALL. */
  lost(): void {
    this.names.clear();
    this.given = this.max;
  }

  /** After a message that failed with `error` or did not run: what it prepared (`fresh`) is forgotten, or everything when a statement was lost. */
  failed(error: unknown, fresh: readonly string[]): void {
    if (isLostStatement(error)) this.lost();
    else this.forget(fresh);
  }

  /** Drops the statements prepared in a message that failed: whether their PREPARE ran is unknown. */
  forget(fresh: readonly string[]): void {
    for (const text of fresh) this.names.delete(text);
  }
}

/** Appends a statement of no parameters whose rows nothing reads (BEGIN, COMMIT): by name where the connection keeps prepared statements. */
export function writeControl(statements: Sql[], text: string, prepared: PreparedStatements | undefined, fresh: string[]): void {
  if (prepared === undefined) statements.push(text);
  else prepared.write(statements, text, [], fresh, false);
}

/** 53 bits of `text` (cyrb53), in base 36: a name differs wherever texts do, well enough for a few thousand statements. */
function textHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
