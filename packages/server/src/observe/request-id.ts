/** The header that carries a request's id, both ways. */
export const REQUEST_ID_HEADER = "x-request-id";

/** A caller's id is kept when it is 1 to 128 of `A-Z a-z 0-9 . _ -`: safe in a header, a log line and a URL. */
const WELL_FORMED = /^[\w.-]{1,128}$/;

let prefix: string | undefined;
let sequence = 0;

/**
 * The id of a request: the caller's `x-request-id` when well formed (a
 * proxy's or a client's trace id, so one id follows the call through), else
 * a new one. New ids are a random prefix drawn once per process and a
 * counter: unique across processes and restarts, and no random draw per call.
 *
 * @example
 * requestIdOf("checkout-42") // "checkout-42"
 * requestIdOf(null)          // "k3v9x2m1q8-1a"
 */
export function requestIdOf(given: string | null): string {
  if (given !== null && WELL_FORMED.test(given)) return given;
  prefix ??= randomPrefix();
  sequence += 1;
  return `${prefix}-${sequence.toString(36)}`;
}

function randomPrefix(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  let text = "";
  for (const byte of bytes) text += (byte % 36).toString(36);
  return text;
}
