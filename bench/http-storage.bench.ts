/*
 * The same HTTP calls on the three storages, loaded by wrk in the same run
 * (alternating rounds): GetMe, Datastore Get and Set, and BuyItem on
 * PostgreSQL (a schema at PLAYFIELD_TEST_DATABASE_URL) and on PGlite (a data
 * folder, as `--data-dir` runs), each as a ratio of the same call on the
 * memory storage. Target: ≥ 0.5 of memory. Each server is its own process
 * (bench/lib/playfield-server.ts); PostgreSQL's own processes are not in the
 * "server CPU" column, so read the req/s ratio. The bench fails (exit 1)
 * when wrk is the limit or a case answers errors.
 *
 *   npm run bench -- http-storage
 *   PLAYFIELD_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --conditions=@playfield/source --import tsx bench/http-storage.bench.ts
 *
 * BENCH_ROUNDS (default 5) and BENCH_SECONDS (default 3) set the rounds.
 */
import { startChild } from "./lib/child.js";
import { assertValid, printHttpTable, runHttpRounds, type HttpCase } from "./lib/http-rounds.js";

const STORAGES = ["memory", "postgres", "pglite"] as const;
type StorageName = (typeof STORAGES)[number];
const LABEL: Record<StorageName, string> = { memory: "memory", postgres: "PostgreSQL", pglite: "PGlite (data folder)" };

const children: Awaited<ReturnType<typeof startChild>>[] = [];
try {
  const servers = new Map<StorageName, { pid: number; url: string; userId: string; token: string; gameToken: string; itemId: string }>();
  for (const storage of STORAGES) {
    process.env.PLAYFIELD_BENCH_STORAGE = storage;
    const child = await startChild("./playfield-server.ts");
    children.push(child);
    servers.set(storage, { pid: child.child.pid!, ...(JSON.parse(child.firstLine) as { url: string; userId: string; token: string; gameToken: string; itemId: string }) });
  }
  delete process.env.PLAYFIELD_BENCH_STORAGE;

  const rpc = (method: string) => `/svc.platform.v1.${method}`;
  const ok = (status: number, body: string) => status === 200 && !body.includes("\"code\"");
  /** The four calls on one storage; the memory ones are the baselines of the others. */
  const casesOf = (storage: StorageName): HttpCase[] => {
    const s = servers.get(storage)!;
    const call = (what: string, short: string, path: string, body: object, token: string, holds: (answer: string) => boolean): HttpCase => ({
      name: `${LABEL[storage]}: ${what}`, short, pid: s.pid, url: `${s.url}${rpc(path)}`, body: JSON.stringify(body),
      headers: { authorization: `Bearer ${token}` }, expect: (status, answer) => ok(status, answer) && holds(answer),
      ...(storage === "memory" ? {} : { against: `${LABEL.memory}: ${what}`, target: 0.5 }),
    });
    return [
      call("GetMe (access token)", "GetMe", "IdentityService/GetMe", {}, s.token, (a) => a.includes(s.userId)),
      call("Datastore Set (game token)", "Set", "DatastoreService/Set", { key: "save", value: JSON.stringify({ level: 3, coins: 120 }) }, s.gameToken, (a) => a.includes("version")),
      call("Datastore Get (game token)", "Get", "DatastoreService/Get", { key: "save" }, s.gameToken, (a) => a.includes("coins")),
      call("BuyItem (developer product, 1 credit)", "BuyItem", "EconomyService/BuyItem", { itemId: s.itemId, expectedPrice: 1 }, s.token, (a) => a.includes("transactionId")),
    ];
  };
  const cases = STORAGES.map(casesOf);
  const rounds = await runHttpRounds(cases.flat(), {
    rounds: Number(process.env.BENCH_ROUNDS ?? 5),
    seconds: Number(process.env.BENCH_SECONDS ?? 3),
  });
  console.log(`\n${rounds.setup}\n`);
  for (const line of rounds.checks) console.log(`${line}\n`);
  const pick = (storage: StorageName) => [...cases[0]!, ...cases[STORAGES.indexOf(storage)]!].map((c) => rounds.figures.get(c.name)!);
  console.log("Every connection of a case is the same account and the same key (as in http.bench.ts): on a database, Set and BuyItem " +
    "all write one row (one entry, one wallet), the worst case for SERIALIZABLE transactions, which take turns on it and run again.\n");
  printHttpTable("PostgreSQL (loopback, one schema, pool of 10) against memory, same calls", pick("postgres"));
  printHttpTable("PGlite in a data folder (one connection, in the server's process) against memory, same calls", pick("pglite"));
  assertValid(rounds);
} finally {
  for (const c of children) c.child.kill();
}
