import { WebSocket } from "ws";

/*
 * Real WebSocket clients of the realtime tests: open, authenticate, collect
 * messages, and wait for a message or the close.
 */

export interface TestSocket {
  ws: WebSocket;
  messages: Record<string, unknown>[];
  /** Resolves with the first message (already received or to come) that matches. */
  next(match: (m: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  closed: Promise<{ code: number; reason: string }>;
  send(message: unknown): void;
}

/** Received messages and waits on them: `push` each message as it arrives. */
export interface MessageLog {
  messages: Record<string, unknown>[];
  push(message: Record<string, unknown>): void;
  /** Resolves with the first message (already received or to come) that matches. */
  next(match: (m: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
}

export function messageLog(): MessageLog {
  const messages: Record<string, unknown>[] = [];
  const waiting = new Set<() => void>();
  return {
    messages,
    push(message) {
      messages.push(message);
      for (const check of [...waiting]) check();
    },
    next(match, timeoutMs = 2000) {
      return new Promise((resolve, reject) => {
        let seen = 0;
        const check = () => {
          for (; seen < messages.length; seen++) {
            if (match(messages[seen]!)) {
              waiting.delete(check);
              clearTimeout(timer);
              resolve(messages[seen]!);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`no matching message in ${timeoutMs} ms; got ${JSON.stringify(messages).slice(0, 400)}`));
        }, timeoutMs);
        waiting.add(check);
        check();
      });
    },
  };
}

export function openSocket(serverUrl: string): Promise<TestSocket> {
  const ws = new WebSocket(`${serverUrl.replace(/^http/, "ws")}/realtime`);
  const log = messageLog();
  ws.on("message", (data) => log.push(JSON.parse(data.toString()) as Record<string, unknown>));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  const socket: TestSocket = {
    ws, messages: log.messages, closed,
    send: (message) => ws.send(typeof message === "string" ? message : JSON.stringify(message)),
    next: log.next,
  };
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(socket));
    ws.once("error", reject);
  });
}

/** Opens a socket and authenticates it with an access token; resolves once `ready`. */
export async function readySocket(serverUrl: string, token: string): Promise<TestSocket> {
  const socket = await openSocket(serverUrl);
  socket.send({ type: "auth", token });
  await socket.next((m) => m.type === "ready");
  return socket;
}
