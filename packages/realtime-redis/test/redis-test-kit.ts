/** Helpers of the Redis suites: a key prefix no other run uses, and its removal. */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

/** A new key and channel prefix for one test. */
export function freshPrefix(purpose: string): string {
  return `test:${purpose}:${process.pid}:${randomBytes(4).toString("hex")}:`;
}

/** A plain connection for looking at Redis from outside the adapter. */
export function adminClient(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1 });
}

/** Deletes every key under `prefix`. */
export async function dropPrefix(admin: Redis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await admin.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
    cursor = next;
    if (keys.length > 0) await admin.del(...keys);
  } while (cursor !== "0");
}

/** How many connections subscribe to a channel. */
export async function subscribers(admin: Redis, channel: string): Promise<number> {
  const [, count] = (await admin.pubsub("NUMSUB", channel)) as [string, number];
  return Number(count);
}
