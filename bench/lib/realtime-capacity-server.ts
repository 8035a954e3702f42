/*
 * The server of bench/realtime-capacity.bench.ts, in its own process (forked
 * with IPC): production mode, memory storage, the realtime WebSocket with
 * its defaults. It seeds the benchmark's users (the idle ones as guests, the
 * chatting group and the presence togglers and their friends as accounts),
 * sends their tokens to the parent, and answers the parent's requests for
 * its own figures: memory after a GC, and over a measured window its CPU and
 * the longest stall of its event loop (`monitorEventLoopDelay`).
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { tables } from "@playfield/core";
import { startServer } from "@playfield/server-memory";

const IDLE = Number(process.env.BENCH_IDLE ?? 0);
const GROUP = Number(process.env.BENCH_GROUP ?? 100);
const TOGGLERS = Number(process.env.BENCH_TOGGLERS ?? 20);
const FRIENDS = Number(process.env.BENCH_FRIENDS ?? 10);

/** Messages from the parent. */
type Request = { type: "memory" } | { type: "measure-start" } | { type: "measure-end" } | { type: "stop" };

// Passwords are never checked here: a hasher that costs nothing keeps seeding the accounts from taking minutes of scrypt.
const hasher = { hash: async (password: string) => `bench:${password}`, verify: async (password: string, encoded: string) => encoded === `bench:${password}` };
const server = await startServer({ port: 0, environment: "production", hasher, sessionSweepMs: 0 });
const gc = (globalThis as { gc?: () => void }).gc;

/** RSS and heap after a full GC, in bytes. */
function memory(): { rss: number; heapUsed: number } {
  gc?.();
  gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}

const before = memory();
const account = async () => { const u = await server.seed.user(); return { userId: u.userId, token: u.accessToken }; };
interface Seeded { userId: string; token: string }
const group: Seeded[] = [];
for (let i = 0; i < GROUP; i++) group.push(await account());
const togglers: (Seeded & { friends: Seeded[] })[] = [];
for (let i = 0; i < TOGGLERS; i++) {
  const toggler = await account();
  const friends: Seeded[] = [];
  for (let f = 0; f < FRIENDS; f++) friends.push(await account());
  togglers.push({ ...toggler, friends });
}
const now = server.clock.now();
await server.deps.storage.transact(async (tx) => {
  await tx.put(tables.groups, { id: "grp_capacity", name: "Capacity", nameKey: "capacity", description: "", ownerId: group[0]!.userId, memberCount: GROUP, createdAt: now });
  for (const [i, u] of group.entries()) {
    await tx.put(tables.groupMembers, { id: `grp_capacity:${u.userId}`, groupId: "grp_capacity", userId: u.userId, rank: i === 0 ? 255 : 1, joinedAt: now });
  }
  for (const t of togglers) {
    for (const f of t.friends) {
      await tx.put(tables.friendEdges, { id: `${t.userId}:${f.userId}`, userId: t.userId, friendId: f.userId, createdAt: now });
      await tx.put(tables.friendEdges, { id: `${f.userId}:${t.userId}`, userId: f.userId, friendId: t.userId, createdAt: now });
    }
  }
});
const idle: string[] = [];
// Names of their own: the seeder's random 8 digits collide among 18,000.
for (let i = 0; i < IDLE; i++) idle.push((await server.seed.guest({ username: `Guest_${10_000_000 + i}` })).accessToken);
const seeded = memory();

let loop = monitorEventLoopDelay({ resolution: 5 });
let cpuFrom = process.cpuUsage();
let wallFrom = performance.now();

process.on("message", (request: Request) => {
  if (request.type === "memory") process.send!({ type: "memory", connections: server.realtime.size, before, seeded, now: memory() });
  if (request.type === "measure-start") {
    loop.disable();
    loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    cpuFrom = process.cpuUsage();
    wallFrom = performance.now();
    process.send!({ type: "measure-start" });
  }
  if (request.type === "measure-end") {
    loop.disable();
    const cpu = process.cpuUsage(cpuFrom);
    process.send!({
      type: "measure-end",
      connections: server.realtime.size,
      stallMaxMs: loop.max / 1e6,
      stallP99Ms: loop.percentile(99) / 1e6,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      seconds: (performance.now() - wallFrom) / 1000,
    });
  }
  if (request.type === "stop") void server.close({ timeoutMs: 2_000 }).finally(() => process.exit(0));
});
process.send!({ type: "ready", url: server.url, group, togglers, idle });
