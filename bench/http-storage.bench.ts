/*
 * The same HTTP calls on the three storages, loaded by wrk in the same run
 * (alternating rounds): GetMe, Datastore Get and Set, and BuyItem on
 * PostgreSQL (a schema at PLAYFIELD_TEST_DATABASE_URL) and on PGlite (a data
 * folder, as `--data-dir` runs), each as a ratio of the same call on the
 * memory storage. Each call twice: by one player (every request the same
 * account and key: on a database, writes all take turns on one row) and by
 * 50 players picked at random per request (the realistic case, which the
 * target is for). Target: ≥ 0.5 of memory. Each server is its own process
 * (bench/lib/playfield-server.ts); PostgreSQL's own processes are not in the
 * "server CPU" column, so read the req/s ratio. The bench fails (exit 1)
 * when wrk is the limit or a case answers errors.
 *
 * Then PostgreSQL alone (bench/lib/pg-replay.ts): the messages each call of
 * the 50 players sends, recorded, replayed by pgbench with no Node at all,
 * in alternating rounds (calls that are one message whole five to a write,
 * as the adapter writes them under load). That rate bounds what any server could reach on
 * this database and machine, so the last table says how much of it
 * Playfield reaches, and whether 0.5 of memory is within reach at all; with
 * the database on this machine, it also gives the CPU its processes spend
 * per call (from /proc), against the server CPU of the same call on memory,
 * and the same once more with the replay held to the rate Playfield
 * reached (a database that idles between messages spends more per call).
 *
 *   npm run bench -- http-storage
 *   PLAYFIELD_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --conditions=@playfield/source --import tsx bench/http-storage.bench.ts
 *
 * BENCH_ROUNDS (default 5) and BENCH_SECONDS (default 3) set the rounds.
 */
import { startChild } from "./lib/child.js";
import { assertValid, printHttpTable, runHttpRounds, type HttpCase } from "./lib/http-rounds.js";
import { formatRate } from "./lib/measure.js";
import { DEFAULT_MAX_ATTEMPTS } from "../packages/storage-postgres/src/retry-policy.js";
import { hasPgbench, inWrites, recordCalls, replay, type ReplayCall } from "./lib/pg-replay.js";

const STORAGES = ["memory", "postgres", "pglite"] as const;
type StorageName = (typeof STORAGES)[number];
const LABEL: Record<StorageName, string> = { memory: "memory", postgres: "PostgreSQL", pglite: "PGlite (data folder)" };
/** Players of the realistic cases, one picked per request. */
const PLAYERS = 50;
/** Calls per write in the replay of whole calls: 50 players on the pool's 10 connections. */
const PER_WRITE = 5;

const children: Awaited<ReturnType<typeof startChild>>[] = [];
try {
  type Player = { userId: string; token: string; gameToken: string; itemId: string };
  const servers = new Map<StorageName, Player & { pid: number; url: string; players: Player[] }>();
  process.env.PLAYFIELD_BENCH_PLAYERS = String(PLAYERS);
  for (const storage of STORAGES) {
    process.env.PLAYFIELD_BENCH_STORAGE = storage;
    const child = await startChild("./playfield-server.ts");
    children.push(child);
    servers.set(storage, { pid: child.child.pid!, ...(JSON.parse(child.firstLine) as Player & { url: string; players: Player[] }) });
  }
  delete process.env.PLAYFIELD_BENCH_STORAGE;
  delete process.env.PLAYFIELD_BENCH_PLAYERS;

  const rpc = (method: string) => `/svc.platform.v1.${method}`;
  const ok = (status: number, body: string) => status === 200 && !body.includes("\"code\"");
  const save = { key: "save", value: JSON.stringify({ level: 3, coins: 120 }) };
  /** The four calls on one storage, by one player or by many; the memory ones are the baselines of the others. */
  const casesOf = (storage: StorageName, many: boolean): HttpCase[] => {
    const s = servers.get(storage)!;
    const who = many ? `, ${PLAYERS} players` : "";
    /** `request` of each player: the one account alone, or one of the many picked per request. */
    const call = (what: string, short: string, path: string, request: (p: Player) => { body: object; token: string }, holds: (answer: string) => boolean): HttpCase => {
      const variants = (many ? s.players : [s]).map((p) => ({ body: JSON.stringify(request(p).body), headers: { authorization: `Bearer ${request(p).token}` } }));
      return {
        name: `${LABEL[storage]}: ${what}${who}`, short: `${short}${who}`, pid: s.pid, url: `${s.url}${rpc(path)}`,
        ...variants[0]!, ...(many ? { mix: variants } : {}),
        expect: (status, answer) => ok(status, answer) && holds(answer),
        ...(storage === "memory" ? {} : { against: `${LABEL.memory}: ${what}${who}`, target: 0.5 }),
      };
    };
    const first = many ? s.players[0]! : s;
    return [
      call("GetMe (access token)", "GetMe", "IdentityService/GetMe", (p) => ({ body: {}, token: p.token }), (a) => a.includes(first.userId)),
      call("Datastore Set (game token)", "Set", "DatastoreService/Set", (p) => ({ body: save, token: p.gameToken }), (a) => a.includes("version")),
      call("Datastore Get (game token)", "Get", "DatastoreService/Get", (p) => ({ body: { key: "save" }, token: p.gameToken }), (a) => a.includes("coins")),
      call("BuyItem (developer product, 1 credit)", "BuyItem", "EconomyService/BuyItem", (p) => ({ body: { itemId: p.itemId, expectedPrice: 1 }, token: p.token }), (a) => a.includes("transactionId")),
    ];
  };
  const cases = STORAGES.map((storage) => [...casesOf(storage, false), ...casesOf(storage, true)]);
  const rounds = await runHttpRounds(cases.flat(), {
    rounds: Number(process.env.BENCH_ROUNDS ?? 5),
    seconds: Number(process.env.BENCH_SECONDS ?? 3),
  });
  console.log(`\n${rounds.setup}\n`);
  for (const line of rounds.checks) console.log(`${line}\n`);
  const pick = (storage: StorageName) => [...cases[0]!, ...cases[STORAGES.indexOf(storage)]!].map((c) => rounds.figures.get(c.name)!);
  console.log("Two kinds of case. One player: every request is the same account and the same key (as in http.bench.ts), so on a database " +
    "Set and BuyItem all write one row (one entry, one wallet): the worst case for SERIALIZABLE transactions, which take turns on it and run again. " +
    `${PLAYERS} players: each request is one of ${PLAYERS} players picked at random (wrk's Lua), each with its own tokens, its own datastore key ` +
    "and an item of its own seller: the realistic case, and the one the target (≥ 0.5 of memory) is for.\n");
  printHttpTable("PostgreSQL (loopback, one schema, pool of 10) against memory, same calls", pick("postgres"));
  printHttpTable("PGlite in a data folder (one connection, in the server's process) against memory, same calls", pick("pglite"));
  assertValid(rounds);
  await databaseAlone((what) => rounds.figures.get(`${LABEL.postgres}: ${what}, ${PLAYERS} players`)!.rate,
    (what) => rounds.figures.get(`${LABEL.memory}: ${what}, ${PLAYERS} players`)!.rate);
} finally {
  for (const c of children) c.child.kill();
}

/** PostgreSQL alone replaying the 50 players' calls, against Playfield's rates on it (`onPostgres`) and on memory. */
async function databaseAlone(onPostgres: (what: string) => number, onMemory: (what: string) => number): Promise<void> {
  if (!hasPgbench()) {
    console.log("PostgreSQL alone: not measured, pgbench is not on this machine (Debian package postgresql-client).");
    return;
  }
  const url = process.env.PLAYFIELD_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
  const save = { key: "save", value: JSON.stringify({ level: 3, coins: 120 }) };
  const calls: ReplayCall[] = [
    { name: "Datastore Set (game token)", path: "/svc.platform.v1.DatastoreService/Set", request: (p) => ({ body: save, token: p.gameToken }) },
    { name: "Datastore Get (game token)", path: "/svc.platform.v1.DatastoreService/Get", request: (p) => ({ body: { key: "save" }, token: p.gameToken }) },
    { name: "BuyItem (developer product, 1 credit)", path: "/svc.platform.v1.EconomyService/BuyItem", request: (p) => ({ body: { itemId: p.itemId, expectedPrice: 1 }, token: p.token }) },
  ];
  const recorded = await recordCalls(url, PLAYERS, calls);
  try {
    const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
    const seconds = Number(process.env.BENCH_SECONDS ?? 3);
    const rates = new Map(calls.map((c) => [c.name, [] as number[]]));
    const retries = new Map(calls.map((c) => [c.name, 0]));
    const failed = new Map(calls.map((c) => [c.name, 0]));
    const cpu = new Map(calls.map((c) => [c.name, [] as number[]]));
    // A call that sends the database nothing (a Datastore Get once its rows are copied) has nothing to replay.
    const silent = (name: string) => recorded.scripts.get(name)!.every((script) => script === "");
    for (let round = 0; round < rounds; round++) {
      for (const call of (round % 2 ? [...calls].reverse() : calls).filter((c) => !silent(c.name))) {
        const { scripts, callsPerRun } = inWrites(recorded.scripts.get(call.name)!, PER_WRITE);
        const result = await replay(recorded, scripts, seconds, undefined, callsPerRun);
        rates.get(call.name)!.push(result.rate);
        retries.set(call.name, retries.get(call.name)! + result.retries);
        failed.set(call.name, failed.get(call.name)! + result.failed);
        if (result.cpuPerCall !== null) cpu.get(call.name)!.push(result.cpuPerCall);
      }
    }
    // The same messages held to the rate Playfield reached: what each call costs the database at that rate (its
    // backends sleep and wake between messages), against the CPU per call when it goes as fast as it can.
    const atRate = new Map<string, number | null>();
    for (const call of calls.filter((c) => !silent(c.name))) {
      const { scripts, callsPerRun } = inWrites(recorded.scripts.get(call.name)!, PER_WRITE);
      atRate.set(call.name, (await replay(recorded, scripts, seconds, onPostgres(call.name), callsPerRun)).cpuPerCall);
    }
    console.log(`\n### PostgreSQL alone: pgbench replaying the messages each call sends (${PLAYERS} players; a call that is one message whole ${PER_WRITE} to a write as the adapter writes them, on ${PLAYERS / PER_WRITE} connections, else a connection per player; ${rounds} rounds of ${seconds} s)\n`);
    // Its CPU per call, when it runs on this machine: what a call costs the database itself, whoever sends it.
    console.log(`| call, 50 players | messages | database alone | PostgreSQL CPU per call | at Playfield's rate | retries per call | failed after ${DEFAULT_MAX_ATTEMPTS} tries | Playfield on PostgreSQL | of the database alone | database alone / memory |`);
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const call of calls) {
      if (silent(call.name)) {
        console.log(`| ${call.name} | 0 | nothing to replay | | | | | ${formatRate(onPostgres(call.name))} | | |`);
        continue;
      }
      const alone = median(rates.get(call.name)!);
      const done = alone * seconds * rounds;
      const cpuPerCall = cpu.get(call.name)!;
      const cpuText = cpuPerCall.length === 0 ? "not here" : `${median(cpuPerCall).toFixed(0)} µs`;
      const held = atRate.get(call.name);
      const heldText = held === null || held === undefined ? "not here" : `${held.toFixed(0)} µs`;
      console.log(`| ${call.name} | ${recorded.messages.get(call.name)} | ${formatRate(alone)} | ${cpuText} | ${heldText} | ${(retries.get(call.name)! / done).toFixed(2)} | ${failed.get(call.name)} | ` +
        `${formatRate(onPostgres(call.name))} | ${(onPostgres(call.name) / alone).toFixed(2)} | ${(alone / onMemory(call.name)).toFixed(2)} |`);
    }
  } finally {
    await recorded.drop();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
