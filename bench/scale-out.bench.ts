/*
 * What a second server process costs and what it carries: real
 * `playfield-server` processes (PLAYFIELD_ENV=production) on one
 * PostgreSQL schema, in three deployments used in turns:
 *   - one process without Redis (the baseline),
 *   - one process with --redis-url,
 *   - two processes with --redis-url, the users split between them.
 * Each deployment has users of its own (seeded straight into the storage,
 * their tokens signed with the stored key every process reads).
 *
 * 1. Chat fan-out to a group of 100 members, each on its own WebSocket
 *    (50 on each process in the two-process deployment): the chat bench's
 *    shape (32 sends in flight, a message done when every member has it),
 *    with the sender rotating over the members, since a real server keeps
 *    each user to 10 messages at once and then one a second.
 * 2. The cost of a call: GetMe (HTTP), a DM with its delivery (the
 *    recipient on the other process when there are two) and a presence
 *    change (a user with 10 friends online, half of them on the other
 *    process, connects or disconnects): latency, one call at a time, and
 *    the CPU of every server process of the deployment per call.
 * 3. What a call asks of PostgreSQL and Redis: a second set of the same
 *    processes, each through a counting proxy to PostgreSQL
 *    (bench/lib/pg-counter.ts), with Redis MONITOR on
 *    (bench/lib/redis-monitor.ts); the heartbeat's own commands, measured
 *    while idle, are taken off.
 *
 *   node --conditions=@playfield/source --import tsx bench/scale-out.bench.ts
 *
 * PLAYFIELD_TEST_DATABASE_URL and PLAYFIELD_TEST_REDIS_URL name the
 * servers (defaults: this machine's). The schema and the Redis keys (under
 * bench:scale-out:<pid>:) are removed at the end.
 */
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { WebSocket } from "ws";
import { tables } from "@playfield/core";
import { createMovableClock, storedSigningKeys } from "@playfield/server";
import { createMemoryServer, type SeededUser } from "@playfield/server-memory";
import { createPostgresStorage } from "@playfield/storage-postgres";
import { dropSchema, freshSchema } from "../packages/storage-postgres/test/postgres-schema.js";
import { adminClient, dropPrefix } from "../packages/realtime-redis/test/redis-test-kit.js";
import { startServerProcess, type ServerProcess } from "../packages/cli/test/server-process.js";
import { formatDuration, formatRate } from "./lib/measure.js";
import { countsSince, pgCounter, zeroCounts, type PgCounter, type PgCounts } from "./lib/pg-counter.js";
import { processCpuSeconds } from "./lib/process-cpu.js";
import { redisMonitor, type RedisCounts, type RedisMonitor } from "./lib/redis-monitor.js";

const POSTGRES = process.env.PLAYFIELD_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const REDIS = process.env.PLAYFIELD_TEST_REDIS_URL || "redis://127.0.0.1:6379";
const PREFIX = `bench:scale-out:${process.pid}:`;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MEMBERS = 100;
const WINDOW = 32;
/** Group messages per round: 2 per member, well inside each member's burst of 10. */
const GROUP_MESSAGES = 200;
const GETME_CALLS = 200;
const DM_PAIRS = 25;
const DM_CALLS = 40;
const FRIENDS = 10;
const PRESENCE_CYCLES = 10;

interface Spec {
  label: string;
  processes: number;
  /** Redis key prefix, or null for a process without Redis. */
  redisPrefix: string | null;
}

const SPECS: Spec[] = [
  { label: "1 process, no Redis", processes: 1, redisPrefix: null },
  { label: "1 process + Redis", processes: 1, redisPrefix: `${PREFIX}one:` },
  { label: "2 processes + Redis", processes: 2, redisPrefix: `${PREFIX}two:` },
];

/** A deployment's users: a group of 100, DM pairs, a presence subject and its friends. */
interface World {
  groupId: string;
  members: SeededUser[];
  senders: SeededUser[];
  recipients: SeededUser[];
  subject: SeededUser;
  friends: SeededUser[];
}

interface Deployment {
  spec: Spec;
  world: World;
  servers: ServerProcess[];
  /** Counting proxies, one per server (counting set only). */
  counters: PgCounter[];
}

// ---------------------------------------------------------------- seeding

async function seedWorlds(schema: string): Promise<World[]> {
  const storage = createPostgresStorage({ url: POSTGRES, schema });
  await storage.init(tables.allTables);
  const clock = createMovableClock();
  // The stored key is the one every playfield-server on this schema signs and verifies with; tokens last the whole run.
  const seeder = createMemoryServer({ storage, clock, keys: await storedSigningKeys(storage, clock), lifetimes: { access: 3 * 3600 } });
  const users = async (count: number) => {
    const out: SeededUser[] = [];
    while (out.length < count) out.push(...await Promise.all(Array.from({ length: Math.min(10, count - out.length) }, () => seeder.seed.user())));
    return out;
  };
  const worlds: World[] = [];
  for (const [i] of SPECS.entries()) {
    const [members, pairs, [subject, ...friends]] = [await users(MEMBERS), await users(2 * DM_PAIRS), await users(1 + FRIENDS)];
    const world: World = { groupId: `grp_bench${i}`, members, senders: pairs.slice(0, DM_PAIRS), recipients: pairs.slice(DM_PAIRS), subject: subject!, friends };
    const now = clock.now();
    await storage.transact(async (tx) => {
      await tx.put(tables.groups, { id: world.groupId, name: `Bench ${i}`, nameKey: `bench ${i}`, description: "", ownerId: members[0]!.userId, memberCount: MEMBERS, createdAt: now });
      for (const [rank, u] of members.entries()) {
        await tx.put(tables.groupMembers, { id: `${world.groupId}:${u.userId}`, groupId: world.groupId, userId: u.userId, rank: rank === 0 ? 255 : 1, joinedAt: now });
      }
      for (const friend of friends) {
        await tx.put(tables.friendEdges, { id: `${subject!.userId}:${friend.userId}`, userId: subject!.userId, friendId: friend.userId, createdAt: now });
        await tx.put(tables.friendEdges, { id: `${friend.userId}:${subject!.userId}`, userId: friend.userId, friendId: subject!.userId, createdAt: now });
      }
    });
    worlds.push(world);
  }
  await storage.close();
  return worlds;
}

// ---------------------------------------------------------------- processes

async function startDeployments(schema: string, worlds: World[], counting: boolean): Promise<Deployment[]> {
  const deployments: Deployment[] = [];
  for (const [i, spec] of SPECS.entries()) {
    const counters: PgCounter[] = [];
    const servers: ServerProcess[] = [];
    for (let p = 0; p < spec.processes; p++) {
      const counter = counting ? await pgCounter(POSTGRES) : null;
      if (counter) counters.push(counter);
      const redis = spec.redisPrefix ? ["--redis-url", REDIS, "--redis-prefix", spec.redisPrefix] : [];
      servers.push(await startServerProcess(["--database-url", counter?.url ?? POSTGRES, "--database-schema", schema, ...redis], { PLAYFIELD_ENV: "production" }));
    }
    deployments.push({ spec, world: worlds[i]!, servers, counters });
  }
  return deployments;
}

async function stopDeployments(deployments: Deployment[]): Promise<void> {
  await Promise.all(deployments.flatMap((d) => d.servers.map((s) => s.stop())));
  await Promise.all(deployments.flatMap((d) => d.counters.map((c) => c.close())));
}

/** CPU seconds of a process and every process under it (the launcher and its server). */
function treeCpuSeconds(pid: number): number {
  let total = processCpuSeconds(pid);
  for (const task of readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) total += treeCpuSeconds(Number(task));
  return total;
}

const deploymentCpu = (d: Deployment) => d.servers.reduce((sum, s) => sum + treeCpuSeconds(s.pid), 0);

/** Which process of the deployment serves the i-th of n users: the first half on the first, the rest on the last. */
const placed = (d: Deployment, i: number, n: number) => d.servers[i < n / 2 ? 0 : d.servers.length - 1]!;
const wsUrl = (server: ServerProcess) => `${server.url.replace("http", "ws")}/realtime`;

// ---------------------------------------------------------------- clients

/** A realtime connection that hands every frame's text to its listeners. */
interface Conn {
  ws: WebSocket;
  userId: string;
  listeners: Set<(text: string) => void>;
}

function openConn(server: ServerProcess, user: SeededUser): Promise<Conn> {
  const ws = new WebSocket(wsUrl(server));
  const conn: Conn = { ws, userId: user.userId, listeners: new Set() };
  return new Promise((resolve, reject) => {
    ws.once("error", reject);
    ws.on("message", (data) => {
      const text = data.toString();
      if (text.includes("\"type\":\"ready\"")) resolve(conn);
      else if (text.includes("\"type\":\"error\"")) reject(new Error(text));
      for (const listener of conn.listeners) listener(text);
    });
    ws.once("open", () => ws.send(JSON.stringify({ type: "auth", token: user.accessToken })));
  });
}

function closeConn(conn: Conn): Promise<void> {
  if (conn.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    conn.ws.once("close", () => resolve());
    conn.ws.close();
  });
}

/** Resolves when `conn` hears a frame `match` accepts; rejects on an error frame. */
function hear(conn: Conn, match: (text: string) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const listener = (text: string) => {
      if (text.includes("\"type\":\"error\"")) {
        conn.listeners.delete(listener);
        reject(new Error(text));
      } else if (match(text)) {
        conn.listeners.delete(listener);
        resolve();
      }
    };
    conn.listeners.add(listener);
  });
}

/** The open connections of a deployment's group members and DM pairs, and their friends' (presence viewers). */
interface Live {
  members: Conn[];
  senders: Conn[];
  recipients: Conn[];
  friends: Conn[];
}

const open = (users: SeededUser[], where: (i: number) => ServerProcess) => Promise.all(users.map((u, i) => openConn(where(i), u)));

/** The connections of one workload: the group's members, the DM pairs or the subject's friends. */
const connectMembers = async (d: Deployment): Promise<Partial<Live>> => ({ members: await open(d.world.members, (i) => placed(d, i, MEMBERS)) });
const connectPairs = async (d: Deployment): Promise<Partial<Live>> => ({
  senders: await open(d.world.senders, () => d.servers[0]!),
  recipients: await open(d.world.recipients, () => d.servers.at(-1)!),
});
const connectFriends = async (d: Deployment): Promise<Partial<Live>> => ({ friends: await open(d.world.friends, (i) => placed(d, i, FRIENDS)) });

async function goLive(d: Deployment, ...connects: ((d: Deployment) => Promise<Partial<Live>>)[]): Promise<Live> {
  const live: Live = { members: [], senders: [], recipients: [], friends: [] };
  for (const connect of connects) Object.assign(live, await connect(d));
  return live;
}

const closeLive = (live: Live) => Promise.all(Object.values(live).flat().map(closeConn));

// ---------------------------------------------------------------- workloads

/**
 * `count` messages to the group, WINDOW unacknowledged at most, the sender
 * rotating over the members; answers the time until every member had every
 * message and each delivery's latency (send to receipt).
 */
async function groupFanOut(d: Deployment, live: Live, count: number, tag: string): Promise<{ ms: number; latencies: number[] }> {
  const sentAt = new Float64Array(count);
  const latencies: number[] = [];
  const total = count * MEMBERS;
  const pattern = new RegExp(`"text":"${tag}-(\\d+)"`);
  let sent = 0;
  let acked = 0;
  const start = performance.now();
  const listeners: [Conn, (text: string) => void][] = [];
  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      while (sent < count && sent - acked < WINDOW) {
        const i = sent++;
        const id = `${tag}-${i}`;
        sentAt[i] = performance.now();
        live.members[i % MEMBERS]!.ws.send(JSON.stringify({ type: "chat_send", channel: `group:${d.world.groupId}`, text: id, clientMessageId: id }));
      }
    };
    for (const conn of live.members) {
      const listener = (text: string) => {
        if (text.includes("\"type\":\"error\"")) reject(new Error(text));
        else if (text.includes("\"chat_ack\"")) {
          acked += 1;
          pump();
        } else if (text.includes("\"chat_message\"")) {
          const i = pattern.exec(text)?.[1];
          if (i === undefined) return;
          latencies.push(performance.now() - sentAt[Number(i)]!);
          if (latencies.length === total) resolve();
        }
      };
      conn.listeners.add(listener);
      listeners.push([conn, listener]);
    }
    pump();
  });
  const ms = performance.now() - start;
  for (const [conn, listener] of listeners) conn.listeners.delete(listener);
  return { ms, latencies };
}

/** GetMe over HTTP, one at a time, alternating over the deployment's processes. */
async function getMes(d: Deployment, count: number): Promise<number[]> {
  const latencies: number[] = [];
  const user = d.world.senders[0]!;
  for (let i = 0; i < count; i++) {
    const server = d.servers[i % d.servers.length]!;
    const start = performance.now();
    const response = await fetch(`${server.url}/svc.platform.v1.IdentityService/GetMe`, {
      method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${user.accessToken}` }, body: "{}",
    });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`GetMe answered ${response.status}: ${body}`);
    latencies.push(performance.now() - start);
  }
  return latencies;
}

/** DMs one at a time, sender on the first process, recipient on the last; latency until the recipient has it (and the sender its ack). */
async function dms(live: Live, count: number, tag: string): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const sender = live.senders[i % DM_PAIRS]!;
    const recipient = live.recipients[i % DM_PAIRS]!;
    const id = `${tag}-${i}`;
    const start = performance.now();
    const delivered = hear(recipient, (text) => text.includes(`"text":"${id}"`)).then(() => performance.now() - start);
    const acked = hear(sender, (text) => text.includes("\"chat_ack\"") && text.includes(`"clientMessageId":"${id}"`));
    sender.ws.send(JSON.stringify({ type: "chat_send", channel: `dm:${recipient.userId}`, text: id, clientMessageId: id }));
    const [latency] = await Promise.all([delivered, acked]);
    latencies.push(latency);
  }
  return latencies;
}

/**
 * The subject connects (on the first process) and disconnects, `cycles`
 * times; each change's latency is until every friend has heard it.
 */
async function presenceChanges(d: Deployment, live: Live, cycles: number): Promise<number[]> {
  const latencies: number[] = [];
  const { userId } = d.world.subject;
  const allHear = (presence: string) => Promise.all(live.friends.map((f) => hear(f, (text) => text.includes("\"presence\"") && text.includes(userId) && text.includes(`"presence":"${presence}"`))));
  for (let c = 0; c < cycles; c++) {
    let start = performance.now();
    const online = allHear("online");
    const conn = await openConn(d.servers[0]!, d.world.subject);
    await online;
    latencies.push(performance.now() - start);
    start = performance.now();
    const offline = allHear("offline");
    conn.ws.close();
    await offline;
    latencies.push(performance.now() - start);
  }
  return latencies;
}

// ---------------------------------------------------------------- figures

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const pct = (values: number[], p: number) => {
  const s = sorted(values);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const median = (values: number[]) => pct(values, 50);
const ratio = (value: number, base: number) => (value / base).toFixed(2);

type Kind = "GetMe" | "DM send + delivery" | "presence change";
const KINDS: Kind[] = ["GetMe", "DM send + delivery", "presence change"];

/** What the timed rounds gathered for one deployment. */
interface Timed {
  fanOutRates: number[];
  fanOutLatencies: number[];
  calls: Record<Kind, { latencies: number[]; cpuSeconds: number }>;
}

const newTimed = (): Timed => ({
  fanOutRates: [], fanOutLatencies: [],
  calls: Object.fromEntries(KINDS.map((k) => [k, { latencies: [] as number[], cpuSeconds: 0 }])) as Timed["calls"],
});

/** One round of every workload on a deployment; `share` of the usual sizes (a warm-up runs less). */
async function timedRound(d: Deployment, live: Live, timed: Timed, tag: string, share = 1): Promise<void> {
  const messages = Math.round(GROUP_MESSAGES * share);
  const fan = await groupFanOut(d, live, messages, `${tag}g`);
  timed.fanOutRates.push(messages / (fan.ms / 1000));
  timed.fanOutLatencies.push(...fan.latencies);
  const run = async (kind: Kind, work: () => Promise<number[]>) => {
    const before = deploymentCpu(d);
    const latencies = await work();
    timed.calls[kind].cpuSeconds += deploymentCpu(d) - before;
    timed.calls[kind].latencies.push(...latencies);
  };
  await run("GetMe", () => getMes(d, Math.round(GETME_CALLS * share)));
  await run("DM send + delivery", () => dms(live, Math.round(DM_CALLS * share), `${tag}d`));
  await run("presence change", () => presenceChanges(d, live, Math.round(PRESENCE_CYCLES * share)));
}

/** What one deployment asked of PostgreSQL and Redis. */
interface Asked {
  pg: PgCounts;
  redis: RedisCounts;
  seconds: number;
}

const noRedis = (): RedisCounts => ({ commands: 0, inScripts: 0, publishes: 0 });

function snapshot(d: Deployment, monitor: RedisMonitor): Asked {
  const pg = zeroCounts();
  for (const c of d.counters) for (const key of Object.keys(pg) as (keyof PgCounts)[]) pg[key] += c.counts[key];
  return { pg, redis: d.spec.redisPrefix ? monitor.counts(d.spec.redisPrefix) : noRedis(), seconds: performance.now() / 1000 };
}

/** Waits until the deployment sent PostgreSQL nothing for a second: the work a call set off is over (on a loaded machine a job may pause for a few hundred ms). */
async function quiet(d: Deployment): Promise<void> {
  const total = () => d.counters.reduce((sum, c) => sum + c.counts.roundTrips, 0);
  let last = -1;
  while (last !== total()) {
    last = total();
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * Counts of a window, less the idle Redis rate (the heartbeats: steady, one
 * beat and one sweep a second per process) over its length, never below
 * zero (a short window may hold fewer beats than the rate says). PostgreSQL
 * is not corrected: idle, a process sends it one sweep every 15 s.
 */
function since(before: Asked, after: Asked, idle: Asked | null): Asked {
  const seconds = after.seconds - before.seconds;
  const pg = countsSince(before.pg, after.pg);
  const redis = { commands: after.redis.commands - before.redis.commands, inScripts: after.redis.inScripts - before.redis.inScripts, publishes: after.redis.publishes - before.redis.publishes };
  if (idle) for (const key of Object.keys(redis) as (keyof RedisCounts)[]) redis[key] = Math.max(0, redis[key] - (idle.redis[key] / idle.seconds) * seconds);
  return { pg, redis, seconds };
}

/** Windows each workload is counted in; the one with the fewest PostgreSQL transactions per call is kept. */
const COUNT_REPEATS = 3;

/**
 * Per-call counts of each workload, and the idle rate, of one deployment.
 * Every 30 s each process reads again the device of every open
 * connection (one transaction each), on a timer of its own: a window that
 * catches that tick counts them too. So each workload's connections are
 * opened just before its windows and closed after, and of COUNT_REPEATS
 * windows the one with the fewest transactions per call is kept (a tick
 * only adds).
 */
async function countDeployment(d: Deployment, monitor: RedisMonitor): Promise<{ idle: Asked; perCall: Map<string, { asked: Asked; calls: number }> }> {
  await quiet(d);
  const idleStart = snapshot(d, monitor);
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const idle = since(idleStart, snapshot(d, monitor), null);
  const perCall = new Map<string, { asked: Asked; calls: number }>();
  const count = async (name: string, calls: number, connects: ((d: Deployment) => Promise<Partial<Live>>)[], work: (live: Live, tag: string) => Promise<unknown>) => {
    const live = await goLive(d, ...connects);
    await quiet(d);
    for (let repeat = 0; repeat < COUNT_REPEATS; repeat++) {
      const before = snapshot(d, monitor);
      await work(live, `c${repeat}`);
      await quiet(d);
      const asked = since(before, snapshot(d, monitor), idle);
      const kept = perCall.get(name);
      if (!kept || asked.pg.transactions < kept.asked.pg.transactions) perCall.set(name, { asked, calls });
    }
    await closeLive(live);
  };
  await count(`group message (${MEMBERS} members)`, 20, [connectMembers], (live, tag) => groupFanOut(d, live, 20, `${tag}g`));
  await count("GetMe", 40, [], () => getMes(d, 40));
  await count("DM send + delivery", 10, [connectPairs], (live, tag) => dms(live, 10, `${tag}d`));
  await count("presence change", 4, [connectFriends], (live) => presenceChanges(d, live, 2));
  return { idle, perCall };
}

// ---------------------------------------------------------------- run

const began = performance.now();
/** Progress on stderr (the tables go to stdout). */
const progress = (what: string) => process.stderr.write(`scale-out: ${((performance.now() - began) / 1000).toFixed(0)} s, load ${loadavg()[0]!.toFixed(1)}: ${what}\n`);

const schema = freshSchema("bench_scale_out");
const loadStart = loadavg()[0]!;
let deployments: Deployment[] = [];
let monitor: RedisMonitor | null = null;
try {
  const worlds = await seedWorlds(schema);
  progress("seeded");

  // Timed: the three deployments in turns, the order reversed every other round.
  deployments = await startDeployments(schema, worlds, false);
  const lives = await Promise.all(deployments.map((d) => goLive(d, connectMembers, connectPairs, connectFriends)));
  progress("timed set started, clients connected");
  const timed = deployments.map(newTimed);
  // A warm-up round, not kept.
  for (const [i, d] of deployments.entries()) await timedRound(d, lives[i]!, newTimed(), "w", 1 / 3);
  for (let round = 0; round < ROUNDS; round++) {
    const order = [...deployments.keys()];
    if (round % 2) order.reverse();
    for (const i of order) await timedRound(deployments[i]!, lives[i]!, timed[i]!, `r${round}`);
    progress(`round ${round + 1} of ${ROUNDS}`);
  }
  const loadTimed = loadavg()[0]!;
  await Promise.all(lives.map(closeLive));
  const peakPool: number[] = [];
  await stopDeployments(deployments);

  // Counted: the same processes again, through counting proxies, MONITOR on.
  deployments = await startDeployments(schema, worlds, true);
  monitor = await redisMonitor(REDIS, SPECS.flatMap((s) => (s.redisPrefix ? [s.redisPrefix] : [])));
  const counted = [];
  for (const d of deployments) {
    counted.push(await countDeployment(d, monitor));
    progress(`counted ${d.spec.label}`);
  }
  for (const d of deployments) peakPool.push(Math.max(...d.counters.map((c) => c.connections.peak)));
  await monitor.close();
  monitor = null;
  await stopDeployments(deployments);
  deployments = [];

  // ---- the tables
  const base = timed[0]!;
  console.log(`Real \`playfield-server\` processes (PLAYFIELD_ENV=production) on one PostgreSQL schema and one Redis, all on this machine: Node ${process.version}, ${cpus().length} cores shared by the servers, PostgreSQL, Redis and the clients (all in this bench's process). `
    + `Load average (1 min): ${loadStart.toFixed(1)} at the start, ${loadTimed.toFixed(1)} after the timed rounds (other jobs share the machine). `
    + `${ROUNDS} rounds after a warm-up, the deployments in turns (order reversed every other round); latencies pooled over the rounds, rates the median round.`);
  console.log(`\n### Chat fan-out to a group of ${MEMBERS}, each member on its own WebSocket (${GROUP_MESSAGES} messages a round, ${WINDOW} in flight, the sender rotating over the members)\n`);
  console.log("| deployment | messages/s | deliveries/s | delivery p50 | delivery p99 | messages/s vs 1 process, no Redis |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const [i, d] of SPECS.entries()) {
    const t = timed[i]!;
    const rate = median(t.fanOutRates);
    const where = d.processes === 2 ? " (50 members on each)" : "";
    console.log(`| ${d.label}${where} | ${formatRate(rate)} | ${formatRate(rate * MEMBERS)} | ${formatDuration(pct(t.fanOutLatencies, 50))} | ${formatDuration(pct(t.fanOutLatencies, 99))} | ${ratio(rate, median(base.fanOutRates))} |`);
  }

  console.log(`\n### The cost of a call, one at a time: latency and server CPU per call (${GETME_CALLS} GetMe, ${DM_CALLS} DMs, ${2 * PRESENCE_CYCLES} presence changes a round)\n`);
  console.log("Server CPU is that of every server process of the deployment over the calls (their timers included). Two processes: GetMe alternates between them; the DM's recipient and half the subject's friends are on the other process.\n");
  console.log("| call | deployment | p50 | p99 | server CPU per call | CPU vs 1 process, no Redis | p50 vs 1 process, no Redis |");
  console.log("|---|---|---:|---:|---:|---:|---:|");
  for (const kind of KINDS) {
    const calls = (t: Timed) => t.calls[kind].latencies.length;
    const cpu = (t: Timed) => (t.calls[kind].cpuSeconds * 1000) / calls(t);
    for (const [i, spec] of SPECS.entries()) {
      const t = timed[i]!;
      const l = t.calls[kind].latencies;
      console.log(`| ${kind} | ${spec.label} | ${formatDuration(pct(l, 50))} | ${formatDuration(pct(l, 99))} | ${formatDuration(cpu(t))} | ${ratio(cpu(t), cpu(base))} | ${ratio(pct(l, 50), pct(base.calls[kind].latencies, 50))} |`);
    }
  }

  console.log(`\n### What a call asks of PostgreSQL and Redis (counted: a proxy in front of PostgreSQL, Redis MONITOR; the idle Redis rate taken off; of ${COUNT_REPEATS} windows per call, the one with the fewest transactions)\n`);
  console.log("Transactions are BEGINs; statements exclude BEGIN, COMMIT and ROLLBACK; a rollback is a transaction refused or run again. Redis commands are those clients sent (a script call counts once), then those the scripts ran. An open connection also costs one transaction every 30 s (its device read again, docs/shared-state.md), kept out of these rows.\n");
  console.log("| call | deployment | PG transactions | PG statements | PG rollbacks | PG round trips | Redis commands | in scripts | of which PUBLISH |");
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|");
  const f = (n: number) => (Math.abs(n) < 0.05 ? "0" : n.toFixed(1));
  const names = [...counted[0]!.perCall.keys()];
  for (const name of names) {
    for (const [i, spec] of SPECS.entries()) {
      const { asked, calls } = counted[i]!.perCall.get(name)!;
      const per = (n: number) => f(n / calls);
      console.log(`| ${name} | ${spec.label} | ${per(asked.pg.transactions)} | ${per(asked.pg.statements)} | ${per(asked.pg.rollbacks)} | ${per(asked.pg.roundTrips)} | ${per(asked.redis.commands)} | ${per(asked.redis.inScripts)} | ${per(asked.redis.publishes)} |`);
    }
  }
  for (const [i, spec] of SPECS.entries()) {
    const { idle } = counted[i]!;
    const per = (n: number) => f(n / idle.seconds / spec.processes);
    console.log(`| idle (no connections), per process per second | ${spec.label} | ${per(idle.pg.transactions)} | ${per(idle.pg.statements)} | ${per(idle.pg.rollbacks)} | ${per(idle.pg.roundTrips)} | ${per(idle.redis.commands)} | ${per(idle.redis.inScripts)} | ${per(idle.redis.publishes)} |`);
  }
  console.log(`\nPostgreSQL connections each process held at most (its pool): ${SPECS.map((s, i) => `${s.label} ${peakPool[i]}`).join("; ")}. Each process with Redis holds 2 Redis connections (commands, subscriber).`);
} finally {
  await monitor?.close().catch(() => undefined);
  await stopDeployments(deployments).catch(() => undefined);
  await dropSchema(POSTGRES, schema);
  const admin = adminClient(REDIS);
  await dropPrefix(admin, PREFIX);
  await admin.quit();
}
process.exit(0);
