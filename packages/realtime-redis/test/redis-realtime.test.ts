import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { createRealtimeHub } from "@playfield/server";
import { connectRedisRealtime, type RedisRealtime, type RedisRealtimeOptions } from "../src/index.js";
import { adminClient, dropPrefix, freshPrefix, subscribers } from "./redis-test-kit.js";

const redisUrl = inject("redisUrl");

/** Whether one process's directory sees a user online. */
const isOnline = async (redis: RedisRealtime, userId: string) => (await redis.presence.onlineAmong([userId])).has(userId);

describe("connectRedisRealtime without Redis", () => {
  it("should reject with the reason when Redis cannot be reached", async () => {
    await expect(connectRedisRealtime({ url: "redis://127.0.0.1:1", connectTimeoutMs: 2_000 })).rejects.toThrow(/^cannot connect to Redis: .*ECONNREFUSED/);
  });
});

describe.skipIf(redisUrl === null)("connectRedisRealtime on Redis", () => {
  let admin: Redis;
  let prefix: string;
  const opened: RedisRealtime[] = [];

  /** A "process" of the deployment under test: its own two connections, the test's prefix. */
  async function processOf(options: Partial<RedisRealtimeOptions> = {}): Promise<RedisRealtime> {
    const redis = await connectRedisRealtime({ url: redisUrl!, keyPrefix: prefix, ...options });
    opened.push(redis);
    return redis;
  }

  /** Everything a presence directory hears, as one list per process. */
  function heard(redis: RedisRealtime): string[][] {
    const lists: string[][] = [];
    redis.presence.onChanged((userIds) => lists.push(userIds));
    return lists;
  }

  beforeAll(() => { admin = adminClient(redisUrl!); });
  afterAll(() => admin.quit());
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((redis) => redis.close()));
    await dropPrefix(admin, prefix);
  });

  describe("pub/sub", () => {
    it("should deliver a topic's payloads to a listener on another process, in publish order", async () => {
      prefix = freshPrefix("order");
      const [a, b] = [await processOf(), await processOf()];
      const got: string[] = [];
      b.pubsub.subscribe("user:ada", (payload) => got.push(payload));
      await expect.poll(() => subscribers(admin, `${prefix}rt:user:ada`)).toBe(1);
      const sent = Array.from({ length: 500 }, (_, i) => JSON.stringify({ type: "chat_message", n: i }));
      for (const payload of sent) a.pubsub.publish("user:ada", payload);
      await expect.poll(() => got.length).toBe(sent.length);
      expect(got).toEqual(sent);
    });

    it("should subscribe a topic in Redis once for several listeners, and unsubscribe with the last", async () => {
      prefix = freshPrefix("refcount");
      const [a, b] = [await processOf(), await processOf()];
      const channel = `${prefix}rt:user:bob`;
      const first: string[] = [];
      const second: string[] = [];
      const stopFirst = b.pubsub.subscribe("user:bob", (payload) => first.push(payload));
      const stopSecond = b.pubsub.subscribe("user:bob", (payload) => second.push(payload));
      await expect.poll(() => subscribers(admin, channel)).toBe(1);
      a.pubsub.publish("user:bob", "one");
      await expect.poll(() => [first, second]).toEqual([["one"], ["one"]]);

      stopFirst();
      stopFirst();
      a.pubsub.publish("user:bob", "two");
      await expect.poll(() => second).toEqual(["one", "two"]);
      expect(first).toEqual(["one"]);
      expect(await subscribers(admin, channel)).toBe(1);

      stopSecond();
      await expect.poll(() => subscribers(admin, channel)).toBe(0);
    });

    it("should publish an event for many users once, and deliver it once to each on whichever process holds them, in order with their own events", async () => {
      prefix = freshPrefix("many");
      const [a, b] = [await processOf(), await processOf()];
      const hubs = [createRealtimeHub({ pubsub: a.pubsub }), createRealtimeHub({ pubsub: b.pubsub })];
      const recipients = Array.from({ length: 20 }, (_, i) => `u${i}`);
      const got = new Map(recipients.map((userId, i) => {
        const texts: string[] = [];
        hubs[i % 2]!.attach({ userId, send: () => undefined, sendText: (text) => texts.push(text) });
        return [userId, texts];
      }));
      await expect.poll(() => subscribers(admin, `${prefix}rt:many`)).toBe(2);
      await expect.poll(() => subscribers(admin, `${prefix}rt:user:u19`)).toBe(1);
      const event = (n: number) => ({ type: "presence", userId: "x", presence: { status: "online" }, n }) as never;
      hubs[0]!.publish("u1", event(1));
      hubs[0]!.publishMany(recipients, event(2));
      hubs[0]!.publish("u1", event(3));
      await expect.poll(() => got.get("u1")!.length).toBe(3);
      expect(got.get("u1")!.map((text) => JSON.parse(text).n)).toEqual([1, 2, 3]);
      for (const userId of recipients) await expect.poll(() => got.get(userId)!.filter((text) => JSON.parse(text).n === 2)).toHaveLength(1);
    });

    it("should not deliver another prefix's payloads", async () => {
      prefix = freshPrefix("isolated");
      const a = await processOf();
      const other = await connectRedisRealtime({ url: redisUrl!, keyPrefix: freshPrefix("other") });
      try {
        const got: string[] = [];
        a.pubsub.subscribe("user:ada", (payload) => got.push(payload));
        await expect.poll(() => subscribers(admin, `${prefix}rt:user:ada`)).toBe(1);
        other.pubsub.publish("user:ada", "elsewhere");
        a.pubsub.publish("user:ada", "here");
        await expect.poll(() => got).toEqual(["here"]);
      } finally {
        await other.close();
      }
    });
  });

  describe("presence", () => {
    it("should see a user connected to another process online until their last connection there closes", async () => {
      prefix = freshPrefix("online");
      const [a, b] = [await processOf(), await processOf()];
      expect(await isOnline(b, "ada")).toBe(false);
      await a.presence.connected("ada");
      await a.presence.connected("ada");
      expect(await isOnline(b, "ada")).toBe(true);
      await a.presence.disconnected("ada");
      expect(await isOnline(b, "ada")).toBe(true);
      await a.presence.disconnected("ada");
      expect(await isOnline(b, "ada")).toBe(false);
    });

    it("should answer for many users in one call, across processes", async () => {
      prefix = freshPrefix("among");
      const [a, b] = [await processOf(), await processOf()];
      await a.presence.connected("ada");
      await b.presence.connected("cy");
      expect(await a.presence.onlineAmong(["ada", "bob", "cy"])).toEqual(new Set(["ada", "cy"]));
      expect(await b.presence.onlineAmong([])).toEqual(new Set());
    });

    it("should tell the other processes of a broadcast, and not the one that sent it", async () => {
      prefix = freshPrefix("broadcast");
      const [a, b] = [await processOf(), await processOf()];
      const [heardByA, heardByB] = [heard(a), heard(b)];
      await expect.poll(() => subscribers(admin, `${prefix}presence`)).toBe(2);
      a.presence.broadcast(["ada", "bob"]);
      await expect.poll(() => heardByB).toEqual([["ada", "bob"]]);
      // A's own word would have reached it by the time B's next one does (one channel, in order).
      b.presence.broadcast(["cy"]);
      await expect.poll(() => heardByA).toEqual([["cy"]]);
      expect(heardByB).toEqual([["ada", "bob"]]);
    });

    it("should take a closed process's users offline at once and tell the others", async () => {
      prefix = freshPrefix("leave");
      const [a, b] = [await processOf(), await processOf()];
      const heardByB = heard(b);
      await a.presence.connected("ada");
      await a.close();
      await expect.poll(() => heardByB.flat()).toContain("ada");
      expect(await isOnline(b, "ada")).toBe(false);
    });

    it("should turn a killed process's users offline within its TTL and one heartbeat, and tell the others", async () => {
      prefix = freshPrefix("kill");
      const ttlMs = 1_000;
      const heartbeatMs = 200;
      const b = await processOf({ heartbeatMs });
      const heardByB = heard(b);
      const fixture = fileURLToPath(new URL("./fixtures/presence-process.ts", import.meta.url));
      const child = spawn(process.execPath, ["--conditions=@playfield/source", "--import", "tsx", fixture, redisUrl!, prefix, "ada", String(ttlMs)], { stdio: ["ignore", "pipe", "inherit"] });
      const exited = once(child, "exit");
      try {
        await new Promise<void>((resolve, reject) => {
          createInterface({ input: child.stdout }).on("line", (line) => { if (line === "connected") resolve(); });
          void exited.then(() => reject(new Error("the presence process exited before connecting")));
        });
        expect(await isOnline(b, "ada")).toBe(true);
      } finally {
        child.kill("SIGKILL");
      }
      await exited;
      const killedAt = performance.now();
      await expect.poll(() => heardByB.flat(), { timeout: 10_000, interval: 20 }).toContain("ada");
      const elapsed = performance.now() - killedAt;
      expect(await isOnline(b, "ada")).toBe(false);
      // The documented bound, with a second of slack for a loaded machine.
      expect(elapsed).toBeLessThan(ttlMs + heartbeatMs + 1_000);
    });

    it("should write its connections again after Redis lost them, and tell the others", async () => {
      prefix = freshPrefix("restore");
      const a = await processOf({ heartbeatMs: 100 });
      const b = await processOf();
      const heardByB = heard(b);
      await a.presence.connected("ada");
      await dropPrefix(admin, prefix);
      expect(await isOnline(b, "ada")).toBe(false);
      await expect.poll(() => heardByB.flat()).toContain("ada");
      expect(await isOnline(b, "ada")).toBe(true);
    });
  });

  describe("ping", () => {
    it("should answer while connected, and refuse once closed", async () => {
      prefix = freshPrefix("ping");
      const a = await processOf();
      await expect(a.ping()).resolves.toBeUndefined();
      await a.close();
      await expect(a.ping()).rejects.toThrow("the connections to Redis are closed");
    });
  });
});
