import type { Server as HttpServer } from "node:http";
import type { ServerLifecycle } from "../lifecycle/server-lifecycle.js";
import type { WebSocketAdapter } from "./websocket-adapter.js";

/** How long a shutdown waits, by default, for requests, WebSockets and transactions to finish before it cuts them. */
export const SHUTDOWN_TIMEOUT_MS = 10_000;

/** How often connections that finished their request are closed while draining. */
const IDLE_SWEEP_MS = 50;

/**
 * Shuts a listening server down gracefully, all within `timeoutMs`:
 * `/readyz` answers 503 at once, the port stops accepting connections,
 * requests under way finish (each keep-alive connection is closed once
 * idle), every WebSocket is closed with 1012 (service restart) and the
 * storage transactions still running (work a closed WebSocket started, a
 * sweep) finish. What is left at the timeout is cut, and `onCut` told.
 */
export async function drainServer(
  http: HttpServer, realtime: WebSocketAdapter, lifecycle: ServerLifecycle, timeoutMs: number, onCut: (error: Error) => void,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  lifecycle.drain();
  const httpClosed = new Promise<void>((resolve) => http.close(() => resolve()));
  http.closeIdleConnections();
  const sweeper = setInterval(() => http.closeIdleConnections(), IDLE_SWEEP_MS);
  let requestsDone: boolean;
  try {
    [requestsDone] = await Promise.all([withinDeadline(httpClosed, deadline), realtime.close(Math.max(0, deadline - performance.now()))]);
  } finally {
    clearInterval(sweeper);
  }
  if (!requestsDone) {
    http.closeAllConnections();
    await httpClosed;
  }
  const transactionsDone = await withinDeadline(lifecycle.idle(), deadline);
  if (!requestsDone || !transactionsDone) {
    const what = [!requestsDone && "requests", !transactionsDone && "storage transactions"].filter(Boolean).join(" and ");
    onCut(new Error(`shutdown: ${what} still running after ${timeoutMs} ms were cut`));
  }
}

/** Whether `promise` settles before `deadline` (a performance.now() time). */
async function withinDeadline(promise: Promise<void>, deadline: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => { timer = setTimeout(() => resolve(false), Math.max(0, deadline - performance.now())); });
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
