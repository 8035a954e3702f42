/*
 * Which failures of a transaction mean "run it again", and how long to wait
 * first. SERIALIZABLE transactions that touch the same rows fail with a
 * serialization failure; lock cycles with a deadlock. Both leave nothing
 * behind, and the port lets an adapter run the function again.
 */

/**
 * SQLSTATEs of a prepared statement missing, or one of that name already there: a pooler handed the transaction to
 * another server connection (pg-queries.ts); the transaction runs again, and its connection is replaced.
 */
const LOST_STATEMENT = new Set([
  "26000", // invalid_sql_statement_name
  "42P05", // duplicate_prepared_statement
]);

/** SQLSTATE division_by_zero: how the check of a copy a writing transaction took fails (table-layout.ts). */
const CHECK_FAILED = "22012";

/** SQLSTATEs after which a transaction is run again. */
const RETRYABLE = new Set([
  "40001", // serialization_failure
  "40P01", // deadlock_detected
  // unique_violation raised by the database itself: the adapter checks unique keys
  // before writing, so this is a concurrent insert that committed after the check
  // (PostgreSQL reports most of those as 40001); run again, the check then sees it.
  "23505",
  ...LOST_STATEMENT,
]);

/** The SQLSTATE of a database error, if `error` is one. */
function codeOf(error: unknown): unknown {
  return typeof error === "object" && error !== null && "code" in error ? (error as { code: unknown }).code : undefined;
}

/** Whether `error` is the database's, with a SQLSTATE (the connection still answers), not the connection's own. */
export function hasSqlState(error: unknown): boolean {
  const code = codeOf(error);
  return typeof code === "string" && code.length === 5;
}

/** Whether `error` says the connection's prepared statements are not what the adapter thinks. */
export function isLostStatement(error: unknown): boolean {
  return LOST_STATEMENT.has(codeOf(error) as string);
}

/** Whether `error` is the failure of a check of a copy (in a message that holds one: no other statement divides). */
export function isCheckFailed(error: unknown): boolean {
  return codeOf(error) === CHECK_FAILED;
}

/** Whether `error` is a database error after which the transaction is run again. */
export function isRetryable(error: unknown): boolean {
  return RETRYABLE.has(codeOf(error) as string);
}

/** How many times a transaction runs at most (the first run included) unless configured. */
export const DEFAULT_MAX_ATTEMPTS = 40;

/**
 * The wait before run `attempt + 1`, in milliseconds: full jitter over an
 * exponential ceiling (1 ms doubling up to 64 ms), so that transactions that
 * collided spread out instead of colliding again in step.
 */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  return random() * Math.min(64, 2 ** (attempt - 1));
}
