import type { WebSocketLike } from "../src/index.js";

/** A scripted WebSocket: tests open, answer and close it by hand. */
export class FakeSocket implements WebSocketLike {
  /** Every socket made, oldest first (tests empty it). */
  static all: FakeSocket[] = [];
  /** The socket made last. */
  static get last(): FakeSocket | undefined { return FakeSocket.all.at(-1); }
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly url: string) { FakeSocket.all.push(this); }
  send(data: string) { this.sent.push(JSON.parse(data) as Record<string, unknown>); }
  close(code = 1000, reason = "") { this.drop(code, reason); }
  open() { this.readyState = 1; this.onopen?.({}); }
  receive(message: unknown) { this.onmessage?.({ data: JSON.stringify(message) }); }
  drop(code: number, reason = "") {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
}
