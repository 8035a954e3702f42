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
/** Players of the realistic cases, one picked per request. */
const PLAYERS = 50;

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
} finally {
  for (const c of children) c.child.kill();
}
