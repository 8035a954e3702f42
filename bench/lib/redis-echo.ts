/*
 * The other process of bench/realtime-redis.bench.ts: on Redis pub/sub
 * (argv: URL, key prefix), hears each payload on topic "ping" and publishes
 * it back on topic "pong". Prints "ready" once subscribed.
 */
import { connectRedisRealtime } from "../../packages/realtime-redis/src/index.js";

const [url, keyPrefix] = process.argv.slice(2) as [string, string];
const redis = await connectRedisRealtime({ url, keyPrefix });
redis.pubsub.subscribe("ping", (payload) => redis.pubsub.publish("pong", payload));
// A subscription is in effect once Redis has it: a PING on the same path after it says so.
await new Promise((resolve) => setTimeout(resolve, 200));
process.stdout.write("ready\n");
