/*
 * What sharing state through PostgreSQL costs (docs/shared-state.md): a
 * chat send with its bucket row against the same send with the limit off;
 * a timer sweep that finds nothing (what each process pays per tick)
 * against a one-get transaction; and a sweep of silent members run by one
 * server against the same sweep run by two servers at the same instant
 * (time, and transaction runs: a run lost to a conflict is run again).
 *
 *   node --conditions=@playfield/source --import tsx bench/shared-state.bench.ts
 *
 * DATABASE_URL names the server (default postgres://postgres@127.0.0.1:5432/test);
 * the bench works in a schema of its own and drops it after. BENCH_SECONDS
 * sets each measurement's length (default 1.5); each pair of cases is
 * measured in three alternating rounds.
 */
import { parseChannel, tables, type Storage } from "@playfield/core";
import { createMemoryServer, type MemoryServer } from "../packages/server-memory/src/index.js";
import { chatCharge } from "../packages/server/src/services/chat/rate.js";
import { storeChat } from "../packages/server/src/services/chat/send.js";
import { sweepSessions } from "../packages/server/src/services/session/roster.js";
import { createPostgresStorage } from "../packages/storage-postgres/src/index.js";
import { dropSchema } from "../packages/storage-postgres/test/postgres-schema.js";
import { cpus, loadavg } from "node:os";
import { formatDuration, measure, medianMs, printTable, type Figure } from "./lib/measure.js";

const url = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const schema = `bench_shared_${process.pid}`;
const SESSIONS = 50;
const SILENT_PER_SESSION = 4;

/** Measures each case in turn, `rounds` times over, and keeps each case's median rate: the load of a shared machine drifts less between cases. */
async function alternating(cases: readonly [string, () => unknown][], rounds = 3): Promise<Figure[]> {
  const rates = cases.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    for (const [i, [name, op]] of cases.entries()) rates[i]!.push((await measure(name, op)).rate);
  }
  return cases.map(([name], i) => ({ name, rate: rates[i]!.sort((x, y) => x - y)[Math.floor(rounds / 2)]!, extra: { rounds: `${rounds}` } }));
}

/** A storage that counts how many times transaction functions run (first runs and re-runs). */
function counting(inner: Storage): Storage & { runs: number } {
  const counted = {
    ...inner,
    runs: 0,
    transact: <T>(fn: Parameters<Storage["transact"]>[0], options?: Parameters<Storage["transact"]>[1]) =>
      inner.transact((tx) => { counted.runs += 1; return fn(tx) as Promise<T>; }, options) as Promise<T>,
  };
  return counted;
}

/** Sessions of silent members (each also has one live member, so the sweep hands over and keeps the session). */
async function seedSilent(server: MemoryServer, round: number): Promise<void> {
  const now = server.clock.now();
  await server.deps.storage.transact(async (tx) => {
    for (let s = 0; s < SESSIONS; s++) {
      const sessionId = `gs_${round}_${s}`;
      await tx.put(tables.gameSessions, {
        id: sessionId, experienceId: "exp_bench", placeVersionId: "ver_bench", hostingTier: "peer", maxPlayers: 50,
        hostUserId: `u_${round}_${s}_0`, memberCount: SILENT_PER_SESSION + 1, createdAt: now - 120_000, closedAt: null,
      });
      for (let m = 0; m <= SILENT_PER_SESSION; m++) {
        const at = m < SILENT_PER_SESSION ? now - 120_000 + m : now;
        await tx.put(tables.sessionMembers, {
          id: `${sessionId}:u_${round}_${s}_${m}`, sessionId, userId: `u_${round}_${s}_${m}`, experienceId: "exp_bench", joinedAt: at, lastHeartbeatAt: at,
        });
      }
    }
  });
}

const storages = [createPostgresStorage({ url, schema }), createPostgresStorage({ url, schema })];
try {
  await storages[0]!.init(tables.allTables);
  console.log(`Node ${process.version}, PostgreSQL on loopback; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs (the database shares them: on a busy machine read the ratios, not the times)`);
  const counted = storages.map(counting);
  const [a, b] = counted.map((storage) => createMemoryServer({ storage, chatRate: { burst: 1_000_000_000, intervalMs: 1 } }));
  const off = createMemoryServer({ storage: storages[0]!, chatRate: null });
  for (const server of [a!, b!, off]) server.clock.freeze();
  b!.clock.set(a!.clock.now());

  const [ada, bob] = [await a!.seed.user(), await a!.seed.user()];
  let n = 0;
  const sendAs = (server: MemoryServer, charged: boolean) => () => storeChat(
    server.deps, ada.userId, { channel: parseChannel(`dm:${bob.userId}`)!, text: "hello", clientMessageId: `m${++n}` },
    charged ? chatCharge(server.deps, ada.userId) : undefined,
  );
  const chat = await alternating([["chat send, limit off", sendAs(off, false)], ["chat send + bucket row", sendAs(a!, true)]]);
  printTable("chat send on PostgreSQL, one after another (median of alternating rounds)", chat, chat[0]!);

  const sweep = await alternating([
    ["one-get transaction", () => storages[0]!.transact((tx) => tx.get(tables.users, ada.userId), { readOnly: true })],
    ["idle sweep", () => sweepSessions(a!.deps)],
  ]);
  printTable("a sweep with nothing to drop (each process's timer tick)", sweep, sweep[0]!);

  const rows: string[] = [];
  for (const [label, sweepers] of [["one server sweeps", [a!]], ["two servers sweep at once", [a!, b!]]] as const) {
    let round = 0, changed = 0, runs = 0, rounds = 0;
    const ms = await medianMs(async () => {
      await seedSilent(a!, ++round + (label.startsWith("two") ? 1000 : 0));
      for (const c of counted) c.runs = 0;
      const results = await Promise.all(sweepers.map((s) => sweepSessions(s.deps)));
      changed += results.reduce((x, y) => x + y, 0);
      runs += counted.reduce((x, c) => x + c.runs, 0);
      rounds++;
    }, 7);
    rows.push(`| ${label} | ${formatDuration(ms)} | ${(changed / rounds).toFixed(0)} | ${(runs / rounds).toFixed(1)} |`);
  }
  console.log(`\n### a sweep of ${SESSIONS * SILENT_PER_SESSION} silent members in ${SESSIONS} sessions (median of 7)\n`);
  console.log("| case | time | sessions changed | transaction runs |");
  console.log("|---|---:|---:|---:|");
  for (const row of rows) console.log(row);
} finally {
  await Promise.all(storages.map((s) => s.close()));
  await dropSchema(url, schema);
}
