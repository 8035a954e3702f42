import { describe, expect, it } from "vitest";
import { createMemoryServer } from "@playfield/server-memory";
import { fail, RealtimeCloseCode } from "@playfield/core";
import { createRealtimeEndpoint, type RealtimeEndpointOptions } from "../src/realtime/realtime-endpoint.js";
import { defaultMessageHandlers, type MessageHandlers } from "../src/realtime/message-handlers.js";
import { chatServer, send } from "./chat-world.js";

/*
 * A connection's frames are handled one at a time, in the order they came
 * (docs/realtime.md, "Order"): answers and effects keep the client's order,
 * and a slow frame holds up its own connection only.
 */

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => { open = resolve; });
  return { opened, open };
}

/** An in-process server and a way to open ready connections of one user on an endpoint with `options`. */
async function inProcess(options: RealtimeEndpointOptions = {}) {
  const server = createMemoryServer();
  server.clock.freeze();
  const ada = await server.seed.user();
  const bob = await server.seed.user();
  const endpoint = createRealtimeEndpoint(server.deps, options);
  const connect = async () => {
    const received: Record<string, unknown>[] = [];
    const closes: { code: number; reason: string }[] = [];
    const peer = endpoint.open({
      send(text, done) { received.push(JSON.parse(text) as Record<string, unknown>); done(); },
      close(code, reason) { closes.push({ code, reason }); },
      bufferedAmount: 0,
    });
    const frame = (message: unknown) => peer.receive(JSON.stringify(message));
    frame({ type: "auth", token: ada.accessToken });
    await expect.poll(() => received.some((m) => m.type === "ready")).toBe(true);
    received.length = 0;
    return { peer, frame, received, closes, types: () => received.map((m) => m.type) };
  };
  return { server, ada, bob, connect };
}

/** A `signal` frame whose handler, below, waits for a gate. */
const slowSignal = (n: number) => ({ type: "signal", sessionId: `s${n}`, to: "someone", data: n });

describe("realtime frame order", () => {
  it("should answer chat_send, then a ping sent right after it, in that order (over a real socket)", async () => {
    await using chat = await chatServer();
    const [ada, bob] = [await chat.account(), await chat.account()];
    ada.socket.send({ type: "chat_send", channel: `dm:${bob.id}`, text: "first", clientMessageId: "m1" });
    ada.socket.send({ type: "ping" });
    await ada.socket.next((m) => m.type === "pong");
    const answers = ada.socket.messages.filter((m) => ["chat_message", "chat_ack", "pong"].includes(m.type as string)).map((m) => m.type);
    // The ack, then the pong: nothing overtakes the chat's answer. (The in-process hub delivers the sender's copy at once, before the ack.)
    expect(answers).toEqual(["chat_message", "chat_ack", "pong"]);
  });

  it("should store and answer chat sends of one connection in the order they were sent", async () => {
    await using chat = await chatServer();
    const [ada, bob] = [await chat.account(), await chat.account()];
    for (let i = 0; i < 5; i++) ada.socket.send({ type: "chat_send", channel: `dm:${bob.id}`, text: `n${i}`, clientMessageId: `k${i}` });
    await send(ada, `dm:${bob.id}`, "last", "k5");
    const acks = ada.socket.messages.filter((m) => m.type === "chat_ack").map((m) => m.clientMessageId);
    expect(acks).toEqual(["k0", "k1", "k2", "k3", "k4", "k5"]);
    await bob.socket.next((m) => m.type === "chat_message" && m.text === "last");
    const heard = bob.socket.messages.filter((m) => m.type === "chat_message").map((m) => m.text);
    expect(heard).toEqual(["n0", "n1", "n2", "n3", "n4", "last"]);
  });

  it("should start a frame's handler only once the previous frame's handler has finished: a slow frame, then chat_send", async () => {
    const slow = gate();
    const log: string[] = [];
    const handlers: MessageHandlers = {
      ...defaultMessageHandlers,
      async signal(frame, ctx) {
        log.push(`signal ${String(frame.data)} starts`);
        await slow.opened;
        log.push(`signal ${String(frame.data)} ends`);
        throw fail.notFound("to: no such member in a session of yours");
      },
      async chat_send(frame, ctx) {
        log.push("chat_send starts");
        await defaultMessageHandlers.chat_send!(frame, ctx);
        log.push("chat_send ends");
      },
    };
    const w = await inProcess({ handlers });
    const c = await w.connect();
    c.frame(slowSignal(1));
    c.frame({ type: "chat_send", channel: `dm:${w.bob.userId}`, text: "after the signal", clientMessageId: "m1" });
    c.frame({ type: "ping" });
    // While the signal waits, nothing after it runs or answers.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).toEqual(["signal 1 starts"]);
    expect(c.received).toEqual([]);
    slow.open();
    await expect.poll(() => c.types().includes("pong")).toBe(true);
    expect(log).toEqual(["signal 1 starts", "signal 1 ends", "chat_send starts", "chat_send ends"]);
    expect(c.types()).toEqual(["error", "chat_message", "chat_ack", "pong"]);
    expect(c.received[0]).toMatchObject({ about: "signal", code: "not_found" });
  });

  it("should not hold up another connection while one connection's frame is slow", async () => {
    const slow = gate();
    const w = await inProcess({ handlers: { ...defaultMessageHandlers, signal: () => slow.opened } });
    const [stuck, free] = [await w.connect(), await w.connect()];
    stuck.frame(slowSignal(1));
    stuck.frame({ type: "ping" });
    free.frame({ type: "ping" });
    free.frame({ type: "chat_send", channel: `dm:${w.bob.userId}`, text: "not waiting", clientMessageId: "m1" });
    await expect.poll(() => free.types().includes("chat_ack")).toBe(true);
    expect(free.types()).toEqual(["pong", "chat_message", "chat_ack"]);
    // The stuck connection heard its own copy of the other connection's message (same user), but no pong yet.
    expect(stuck.types()).toEqual(["chat_message"]);
    slow.open();
    await expect.poll(() => stuck.types()).toEqual(["chat_message", "pong"]);
  });

  it("should renew the token in order: frames after a renewing auth wait for it", async () => {
    const w = await inProcess();
    const c = await w.connect();
    c.frame({ type: "auth", token: w.ada.accessToken });
    c.frame({ type: "ping" });
    await expect.poll(() => c.types()).toEqual(["ready", "pong"]);
  });

  it("should keep at most a burst's worth of frames waiting, and close with 4029 on one more", async () => {
    const slow = gate();
    const w = await inProcess({ maxFrames: { burst: 3, intervalMs: 10 }, handlers: { ...defaultMessageHandlers, signal: () => slow.opened } });
    const c = await w.connect();
    // Frames spaced by the sustained rate pass the rate limit, but pile up behind the slow one.
    w.server.clock.advance(30);
    c.frame(slowSignal(1));
    for (let i = 0; i < 3; i++) {
      w.server.clock.advance(10);
      c.frame({ type: "ping" });
    }
    expect(c.closes).toEqual([]);
    w.server.clock.advance(10);
    c.frame({ type: "ping" });
    expect(c.closes).toEqual([{ code: RealtimeCloseCode.TooManyFrames, reason: "too many messages: at most 3 waiting for the one being handled" }]);
    slow.open();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(c.types()).toEqual([]);
  });

  it("should keep at most 100 frames waiting with the frame limit off", async () => {
    const slow = gate();
    const w = await inProcess({ maxFrames: null, handlers: { ...defaultMessageHandlers, signal: () => slow.opened } });
    const c = await w.connect();
    c.frame(slowSignal(1));
    for (let i = 0; i < 100; i++) c.frame({ type: "ping" });
    expect(c.closes).toEqual([]);
    c.frame({ type: "ping" });
    expect(c.closes).toMatchObject([{ code: RealtimeCloseCode.TooManyFrames }]);
  });

  it("should answer 100 frames that waited, in order, once the slow one is done", async () => {
    const slow = gate();
    const w = await inProcess({ handlers: { ...defaultMessageHandlers, signal: () => slow.opened } });
    const c = await w.connect();
    w.server.clock.advance(1000);
    c.frame(slowSignal(1));
    for (let i = 0; i < 99; i++) c.frame(i % 2 ? { type: "ping" } : { type: "nope" });
    slow.open();
    await expect.poll(() => c.received.length).toBe(99);
    expect(c.types()).toEqual(Array.from({ length: 99 }, (_, i) => (i % 2 ? "pong" : "error")));
    expect(c.closes).toEqual([]);
  });
});
