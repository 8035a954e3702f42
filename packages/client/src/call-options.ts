/** Options of one call, the second argument of every client method. */
export interface CallOptions {
  /** Aborts the call; it then rejects with `canceled`. */
  signal?: AbortSignal;
  /** Deadline of this call in milliseconds (refresh and retry included), overriding the client's; 0 for none. It then rejects with `deadline_exceeded`. */
  timeoutMs?: number;
  /** Extra request headers. An `Authorization` header given here is sent as is, with no refresh. */
  headers?: HeadersInit;
  /** A bearer token for this call alone (a scoped or game token, say), sent instead of the kept one. */
  token?: string;
}
