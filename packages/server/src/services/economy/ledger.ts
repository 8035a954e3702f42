import { tables, withChanges, type Clock, type LedgerKind, type LedgerRow, type Tx, type WalletRow } from "@playfield/core";
import type { ServerDeps } from "../../server-deps.js";

/*
 * The wallet and its ledger: every bucket change goes through `post`, which
 * writes the ledger row and the wallet in the same transaction, so each
 * bucket always equals the sum of its ledger deltas. Held sale shares are
 * released lazily: every read or write of a wallet first settles the holds
 * whose time has come (by the injected clock).
 */

/** Sequence numbers per millisecond of the clock before the sequence runs ahead of it. */
const SEQ_PER_MS = 1024;

/** A server's sequence of `seq` numbers (`ServerDeps.sequence`). */
export interface Sequence {
  /** The next number: above every number this sequence handed out, and at least `atLeast`. */
  next(atLeast?: number): number;
}

/**
 * The sequence of one server (the `seq` of ledger rows, items, orders and
 * payouts): the clock's milliseconds × 1,024, or one more than its last
 * number when the clock has not moved on, so it always grows. It belongs to
 * the server, not the module: servers in one process (tests make many) do not
 * share it, as servers in different processes cannot. No shared counter row:
 * concurrent writers never collide on it (docs/storage.md, "Hot rows").
 * Numbers of different servers order by their clocks, and two servers may
 * hand out the same number in the same millisecond: `seq` only orders rows
 * (no unique index holds it; equal numbers tie by id), and where an order
 * is owed, one wallet's ledger, `post` takes a number above the wallet's
 * last one. Numbers stay below 2^53 until the year 2248, and above the
 * counters of earlier versions (1, 2, 3, …), so newer rows sort after older ones.
 */
export function createSequence(clock: Clock): Sequence {
  let last = 0;
  return {
    next(atLeast = 0) {
      last = Math.max(Math.floor(clock.now()) * SEQ_PER_MS, last + 1, atLeast);
      return last;
    },
  };
}

/** The next number of the server's sequence. */
export function nextSeq(deps: Pick<ServerDeps, "sequence">): number {
  return deps.sequence.next();
}

/** The wallet of a user who has none yet: all zeros. */
export const emptyWallet = (userId: string): WalletRow => ({ userId, purchased: 0, earned: 0, pending: 0, nextReleaseAt: null, updatedAt: 0 });

/** A user's wallet with every hold due by `now` released into `earned`. Inside a transaction (it may write). */
export async function settledWallet(tx: Tx, userId: string, now: number): Promise<WalletRow> {
  return settle(tx, (await tx.get(tables.wallets, userId)) ?? emptyWallet(userId), now);
}

/** What `settle` reads of a wallet's held sale rows: those due by its `now`, and the first one after them. */
export interface Holds {
  due: LedgerRow[];
  next: LedgerRow | undefined;
}

/**
 * The holds `settle` needs at `now`, both queries asked for at once (and with
 * anything else the caller asks for in the same turn: one message on a
 * database). Once the due ones are released, the first one after them is
 * the first held.
 */
export function readHolds(tx: Tx, userId: string, now: number): Promise<Holds> {
  return Promise.all([
    tx.query(tables.ledger, "heldByUser", { equals: [userId], range: { lte: now } }),
    tx.query(tables.ledger, "heldByUser", { equals: [userId], range: { gt: now }, limit: 1 }),
  ]).then(([due, [next]]) => ({ due, next }));
}

/** Whether a hold of `wallet` is due by `now`: what `settle` has to release (a caller that checks first saves a turn). */
export const isDue = (wallet: WalletRow, now: number): boolean => wallet.nextReleaseAt !== null && wallet.nextReleaseAt <= now;

/**
 * `wallet` (as just read in this transaction, or `emptyWallet`) with every
 * hold due by `now` released into `earned`: no statement unless a hold is
 * due. For callers that read wallets together with other rows; `holds`,
 * when given, were read (`readHolds`) in this transaction before any write
 * to the wallet's ledger.
 */
export async function settle(tx: Tx, wallet: WalletRow, now: number, holds?: Holds): Promise<WalletRow> {
  if (!isDue(wallet, now)) return wallet;
  const { due, next } = holds ?? await readHolds(tx, wallet.userId, now);
  let released = 0;
  for (const row of due) {
    released += row.pending;
    await tx.put(tables.ledger, withChanges(row, { earned: row.earned + row.pending, pending: 0, heldUntil: null }));
  }
  const settled = withChanges(wallet, {
    earned: wallet.earned + released,
    pending: wallet.pending - released,
    nextReleaseAt: next?.heldUntil ?? null,
    updatedAt: now,
  });
  await tx.put(tables.wallets, settled);
  return settled;
}

/** A change to post: the kind, the amount shown, and the bucket deltas. */
export interface Posting {
  userId: string;
  kind: LedgerKind;
  amount: number;
  memo: string;
  purchased?: number;
  earned?: number;
  /** A held share: goes to `pending` until `heldUntil`. */
  pending?: number;
  heldUntil?: number;
  ref: string;
  role?: LedgerRow["role"];
}

/**
 * Writes one ledger row and applies its deltas to the wallet. Refuses (throws)
 * a change that would leave a bucket negative: callers check first, so this
 * is a guard, never a user-facing answer. Inside a transaction. `settled` is
 * the user's wallet as `settle` left it earlier in this transaction, with no
 * write to it since: given, the wallet is not read again (a round trip on a
 * database); the writes then wait for the transaction's next statement.
 */
export async function post(tx: Tx, deps: ServerDeps, posting: Posting, settled?: WalletRow): Promise<{ row: LedgerRow; wallet: WalletRow }> {
  const now = deps.clock.now();
  if (settled !== undefined && settled.userId !== posting.userId) throw new Error(`ledger: the wallet given is ${settled.userId}'s, not ${posting.userId}'s`);
  const wallet = settled ?? await settledWallet(tx, posting.userId, now);
  const purchased = posting.purchased ?? 0, earned = posting.earned ?? 0, pending = posting.pending ?? 0;
  const next = withChanges(wallet, {
    purchased: wallet.purchased + purchased,
    earned: wallet.earned + earned,
    pending: wallet.pending + pending,
    updatedAt: now,
  });
  if (next.purchased < 0 || next.earned < 0 || next.pending < 0) throw new Error(`ledger: ${posting.kind} would make a bucket of ${posting.userId} negative`);
  const heldUntil = pending > 0 ? posting.heldUntil ?? null : null;
  if (heldUntil !== null && (next.nextReleaseAt === null || heldUntil < next.nextReleaseAt)) next.nextReleaseAt = heldUntil;
  const row: LedgerRow = {
    id: deps.ids.id("txn"),
    userId: posting.userId,
    kind: posting.kind,
    amount: posting.amount,
    memo: posting.memo,
    createdAt: now,
    // Above the wallet's last: one wallet's rows number in commit order, whichever server wrote them and whatever its clock says.
    seq: deps.sequence.next((wallet.lastSeq ?? 0) + 1),
    purchased,
    earned,
    pending,
    heldUntil,
    ref: posting.ref,
    role: posting.role ?? null,
  };
  next.lastSeq = row.seq;
  await tx.put(tables.ledger, row);
  await tx.put(tables.wallets, next);
  return { row, wallet: next };
}

/** A wallet as the API shows it. */
export function walletView(wallet: Pick<WalletRow, "purchased" | "earned" | "pending">) {
  return { purchased: wallet.purchased, earned: wallet.earned, pending: wallet.pending, total: wallet.purchased + wallet.earned };
}
