/*
 * What the probes share (bench/probes/: not benches, `npm run bench` does
 * not run them): the http bench's server (memory storage, production
 * settings, bench/lib/bench-world.ts), listening on a free port but called
 * in process through its responder, as the Node adapter calls it, and the
 * four calls the http bench compares: GetMe, Datastore Get and Set, BuyItem.
 * Counts per call, not rates: they hold on a loaded machine.
 */
import { createMemoryStorage, startServer } from "@playfield/server-memory";
import { createPostgresStorage } from "@playfield/storage-postgres";
import { seedBenchWorld } from "../lib/bench-world.js";
import { dropSchema, freshSchema } from "../../packages/storage-postgres/test/postgres-schema.js";

// PROBE_DATABASE_URL: on PostgreSQL, in a schema of its own (dropped by `close`), rather than on memory.
const url = process.env.PROBE_DATABASE_URL;
const postgres = url ? createPostgresStorage({ url, schema: freshSchema("probe") }) : undefined;
const started = await startServer({ port: 0, storage: postgres ?? createMemoryStorage(), environment: "production", datastore: { requestsPerMinute: 1e15, storedBytes: 1e15 } });
const closeServer = started.close.bind(started);
/** The server; `close` also drops the probe's schema on PostgreSQL. */
export const server = Object.assign(started, {
  close: async () => {
    await closeServer();
    if (postgres) {
      await postgres.close();
      await dropSchema(url!, postgres.schema);
    }
  },
});
const world = await seedBenchWorld(server, Number(process.env.PROBE_PLAYERS ?? 0));

/** A request as the Node adapter's NodeRequest reads one: methods on the prototype, no closure per call. */
class ProbeRequest {
  readonly method = "POST";
  readonly clientAddress = "127.0.0.1";
  private readonly headers: Record<string, string>;
  constructor(readonly path: string, private readonly body: Buffer, token: string) {
    this.headers = { "content-type": "application/json", authorization: `Bearer ${token}`, host: "127.0.0.1" };
  }
  get query() {
    return new URLSearchParams();
  }
  header(name: string) {
    return this.headers[name] ?? null;
  }
  text() {
    return this.body.toString("utf8");
  }
}

/** Calls `path` with `body` as the holder of `token`; throws unless it answers 200. */
export async function call(path: string, body: string, token: string) {
  const answer = await server.respond(new ProbeRequest(path, Buffer.from(body), token));
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${String(answer.body)}`);
  return answer;
}

const rpc = (method: string) => `/svc.platform.v1.${method}`;
/** The cases of one player: name, path, body, token. Set comes before Get, so that Get finds the entry. */
function casesOf(p: { token: string; gameToken: string; itemId: string }): [string, string, string, string][] {
  return [
    ["GetMe", rpc("IdentityService/GetMe"), "{}", p.token],
    ["Set", rpc("DatastoreService/Set"), JSON.stringify({ key: "save", value: JSON.stringify({ level: 3, coins: 120 }) }), p.gameToken],
    ["Get", rpc("DatastoreService/Get"), JSON.stringify({ key: "save" }), p.gameToken],
    ["BuyItem", rpc("EconomyService/BuyItem"), JSON.stringify({ itemId: p.itemId, expectedPrice: 1 }), p.token],
  ];
}
export const cases = casesOf(world);
/** PROBE_PLAYERS more players' cases (default none), each with its own key, wallet and seller, as http-storage's 50 players. */
export const players = world.players.map(casesOf);

/** The case called `name`. */
export function caseOf(name: string): [string, string, string, string] {
  const found = cases.find((c) => c[0] === name);
  if (!found) throw new Error(`no case ${name}: ${cases.map((c) => c[0]).join(", ")}`);
  return found;
}

/** Runs `n` calls of the case `name`, one after another. */
export async function runCase(name: string, n: number): Promise<void> {
  const [, path, body, token] = caseOf(name);
  for (let i = 0; i < n; i++) await call(path, body, token);
}
