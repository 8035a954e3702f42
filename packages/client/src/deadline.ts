import { Code, PlayfieldError } from "@playfield/core/wire";

/** The signal of one call: aborted with `canceled` when the caller aborts, with `deadline_exceeded` at the deadline. */
export interface Deadline {
  signal: AbortSignal;
  /** Stops the timer and the listening; call it when the call settles. */
  dispose(): void;
}

/**
 * Creates a call's signal from the caller's signal and a timeout. The abort
 * reason is the `PlayfieldError` the call rejects with, so every step that
 * sees the signal can report it as is.
 */
export function createDeadline(parent: AbortSignal | undefined, timeoutMs: number): Deadline {
  const controller = new AbortController();
  const onAbort = () => controller.abort(new PlayfieldError(Code.Canceled, "the call was canceled", { cause: parent?.reason }));
  if (parent?.aborted) onAbort();
  else parent?.addEventListener("abort", onAbort, { once: true });
  const timer = timeoutMs > 0
    ? setTimeout(() => controller.abort(new PlayfieldError(Code.DeadlineExceeded, `no answer within ${timeoutMs} ms`)), timeoutMs)
    : undefined;
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      parent?.removeEventListener("abort", onAbort);
    },
  };
}

/** Settles like `promise`, or rejects with the signal's reason as soon as it aborts (the promise's own failure is then ignored). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
