/*
 * CPU of this process per Datastore Set and per BuyItem (50 players, 50 in flight) through the in-process server,
 * on PostgreSQL (own schema) or PGlite in a data folder. ROOT = checkout whose code runs.
 *   ROOT=/work/main STORE=postgres node --conditions=@playfield/source --import tsx /tmp/wire-probe/writes.ts
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
const ROOT = process.env.ROOT ?? new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const STORE = process.env.STORE ?? "postgres";
const N = Number(process.env.N ?? 2000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const url = process.env.PLAYFIELD_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const { startServer } = await import(`${ROOT}/packages/server-memory/src/index.ts`);
const sp = await import(`${ROOT}/packages/storage-postgres/src/index.ts`);
const { seedBenchWorld } = await import(`${ROOT}/bench/lib/bench-world.ts`);
const { dropSchema, freshSchema } = await import(`${ROOT}/packages/storage-postgres/test/postgres-schema.ts`);
const pg = (await import(`${ROOT}/node_modules/pg/lib/index.js`)).default;
let connects = 0;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- another checkout's storage, loaded by path
let storage: any, schema: string | undefined, folder: string | undefined;
if (STORE === "postgres") {
  schema = freshSchema("wireprobe");
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on("connect", () => connects++);
  storage = sp.createPostgresStorage({ pool, schema });
} else {
  folder = await mkdtemp(join(tmpdir(), "wire-probe-"));
  storage = sp.createPgliteStorage({ dataDir: join(folder, "data") });
}
const server = await startServer({ port: 0, storage, environment: "production", datastore: { requestsPerMinute: 1e15, storedBytes: 1e15 } });
const t0 = performance.now();
const world = await seedBenchWorld(server, 50);
console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
class ProbeRequest {
  readonly method = "POST"; readonly clientAddress = "127.0.0.1"; private readonly headers: Record<string, string>;
  constructor(readonly path: string, private readonly body: Buffer, token: string) { this.headers = { "content-type": "application/json", authorization: `Bearer ${token}`, host: "127.0.0.1" }; }
  get query() { return new URLSearchParams(); }
  header(name: string) { return this.headers[name] ?? null; }
  text() { return this.body.toString("utf8"); }
}
const rpc = (m: string) => `/svc.platform.v1.${m}`;
const casesOf = (p: any) => ({
  Set: [rpc("DatastoreService/Set"), JSON.stringify({ key: "save", value: JSON.stringify({ level: 3, coins: 120 }) }), p.gameToken],
  BuyItem: [rpc("EconomyService/BuyItem"), JSON.stringify({ itemId: p.itemId, expectedPrice: 1 }), p.token],
} as Record<string, [string, string, string]>);
const players = world.players.map(casesOf);
const one = casesOf(world);
for (const k of ["Set", "BuyItem"]) for (const p of players) p[k + "1"] = one[k]!;
async function run(name: string, n: number) {
  let left = n;
  await Promise.all(Array.from({ length: 50 }, async () => {
    while (left-- > 0) {
      const [path, body, token] = players[left % players.length]![name]!;
      const answer = await server.respond(new ProbeRequest(path, Buffer.from(body), token));
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${String(answer.body)}`);
    }
  }));
}
const names = (process.env.CASES ?? "Set,BuyItem").split(",");
for (const name of names) await run(name, 500);
const best = new Map<string, number[]>();
for (let r = 0; r < ROUNDS; r++) {
  for (const name of names) {
    const c0 = connects, r0 = storage.retries;
    const cpu = process.cpuUsage();
    const t = performance.now();
    await run(name, N);
    const used = process.cpuUsage(cpu);
    const us = (used.user + used.system) / N;
    (best.get(name) ?? best.set(name, []).get(name)!).push(us);
    console.log(`${ROOT} ${STORE} ${name}: ${us.toFixed(0)} µs CPU/call, ${(N / (performance.now() - t) * 1000).toFixed(0)} calls/s, ${connects - c0} new connections, ${((storage.retries - r0) / N).toFixed(2)} retries/call`);
  }
}
for (const [name, v] of best) console.log(`SUMMARY ${ROOT} ${STORE} ${name}: median ${[...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!.toFixed(0)} µs, min ${Math.min(...v).toFixed(0)} µs`);
await server.close();
await storage.close?.();
if (schema) await dropSchema(url, schema);
if (folder) await rm(folder, { recursive: true, force: true });
