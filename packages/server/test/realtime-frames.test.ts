import { describe, expect, it } from "vitest";
import { createMemoryServer } from "@playfield/server-memory";
import { startServer } from "@playfield/server-memory";
import { RealtimeCloseCode } from "@playfield/core";
import { createRealtimeEndpoint, DEFAULT_MAX_FRAMES, type RealtimeEndpointOptions } from "../src/realtime/realtime-endpoint.js";
import { readySocket } from "./realtime-sockets.js";

/** An in-process connection on a frozen clock: what it received and how it closed. */
async function inProcess(options: RealtimeEndpointOptions = {}) {
  const server = createMemoryServer();
  server.clock.freeze();
  const ada = await server.seed.user();
  const received: Record<string, unknown>[] = [];
  const closes: { code: number; reason: string }[] = [];
  const peer = createRealtimeEndpoint(server.deps, options).open({
    send(text, done) { received.push(JSON.parse(text) as Record<string, unknown>); done(); },
    close(code, reason) { closes.push({ code, reason }); },
    bufferedAmount: 0,
  });
  peer.receive(JSON.stringify({ type: "auth", token: ada.accessToken }));
  await expect.poll(() => received.some((m) => m.type === "ready")).toBe(true);
  const pongs = () => received.filter((m) => m.type === "pong").length;
  return { server, peer, received, closes, pongs, ping: () => peer.receive("{\"type\":\"ping\"}") };
}

describe("connection frame limit", () => {
  it("should default to 100 at once, then one every 20 ms (50 a second)", () => {
    expect(DEFAULT_MAX_FRAMES).toEqual({ burst: 100, intervalMs: 20 });
  });

  it("should answer a burst of 100 frames (auth included) and close with 4029 on the next", async () => {
    const c = await inProcess();
    for (let i = 0; i < 99; i++) c.ping();
    expect(c.pongs()).toBe(99);
    expect(c.closes).toEqual([]);
    c.ping();
    expect(c.pongs()).toBe(99);
    expect(c.closes).toEqual([{ code: RealtimeCloseCode.TooManyFrames, reason: "too many messages: at most 100 at once, then one every 20 ms" }]);
    // Closed: nothing more is read.
    c.ping();
    expect(c.pongs()).toBe(99);
  });

  it("should keep a connection that stays within 50 frames a second, forever", async () => {
    const c = await inProcess();
    for (let i = 0; i < 99; i++) c.ping();
    for (let i = 0; i < 500; i++) {
      c.server.clock.advance(20);
      c.ping();
    }
    expect(c.closes).toEqual([]);
    expect(c.pongs()).toBe(599);
  });

  it("should count frames of every kind, refused and malformed ones before they are read", async () => {
    const c = await inProcess({ maxFrames: { burst: 4, intervalMs: 1000 } });
    c.peer.receive("{\"type\":\"nope\"}");
    c.peer.receive("{\"type\":\"chat_send\"}");
    c.peer.receive("{\"type\":\"signal\"}");
    expect(c.closes).toEqual([]);
    // Over the limit, a malformed frame closes with 4029: it is counted before it is read.
    c.peer.receive("not json");
    expect(c.closes).toMatchObject([{ code: RealtimeCloseCode.TooManyFrames }]);
  });

  it("should not limit frames with maxFrames null", async () => {
    const c = await inProcess({ maxFrames: null });
    for (let i = 0; i < 1000; i++) c.ping();
    expect(c.closes).toEqual([]);
    expect(c.pongs()).toBe(1000);
  });

  it("should close a flooding WebSocket with 4029, and only that one", async () => {
    const server = await startServer({ port: 0, sessionSweepMs: 0, websocket: { maxFrames: { burst: 20, intervalMs: 1000 } } });
    try {
      server.clock.freeze();
      const ada = await server.seed.user();
      const [flood, calm] = [await readySocket(server.url, ada.accessToken), await readySocket(server.url, ada.accessToken)];
      for (let i = 0; i < 40; i++) flood.send({ type: "ping" });
      expect(await flood.closed).toMatchObject({ code: RealtimeCloseCode.TooManyFrames, reason: expect.stringMatching(/^too many messages/) });
      expect(flood.messages.filter((m) => m.type === "pong")).toHaveLength(19);
      calm.send({ type: "ping" });
      await calm.next((m) => m.type === "pong");
      calm.ws.close();
    } finally {
      await server.close();
    }
  });
});
