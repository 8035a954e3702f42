/*
 * Probe (not a bench): a call's recorded messages (bench/lib/pg-replay.ts) sent as the adapter writes whole
 * transactions (whole-messages.ts: five calls a write on ten connections, each COMMIT without waiting for the
 * disk, one flush at the end), once as one simple query of `EXECUTE name(literals)` (how the adapter sent them
 * before) and once as the adapter sends them now, through the extended protocol (bound-statements.ts: a Bind and
 * an Execute per prepared statement, one Sync a write), in alternating rounds: calls a second, this process's CPU
 * per call (the driver and the socket, not the writing of the SQL: both forms are made before the rounds) and
 * PostgreSQL's (its processes on this machine, from /proc). The simple side parses every answer's rows; the
 * extended side only the rows of statements whose rows a call reads (none of a whole transaction's).
 *   PLAYFIELD_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --conditions=@playfield/source --import tsx bench/probes/extended-protocol.ts
 * PROBE_CALL=BuyItem replays BuyItem instead of a Datastore Set.
 */
import pg from "pg";
import { runBound } from "../../packages/storage-postgres/src/bound-statements.js";
import type { Sql } from "../../packages/storage-postgres/src/sql-statement.js";
import { FLUSH, NO_WAIT } from "../../packages/storage-postgres/src/whole-messages.js";
import { postgresCpuMicros, recordCalls, type ReplayCall } from "../lib/pg-replay.js";

const url = process.env.PLAYFIELD_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const PER_WRITE = 5;
const CONNECTIONS = 10;
const PLAYERS = PER_WRITE * CONNECTIONS;

const calls: Record<string, ReplayCall> = {
  Set: { name: "Set", path: "/svc.platform.v1.DatastoreService/Set", request: (p) => ({ body: { key: "save", value: "{\"level\":3,\"coins\":120}" }, token: p.gameToken }) },
  BuyItem: { name: "BuyItem", path: "/svc.platform.v1.EconomyService/BuyItem", request: (p) => ({ body: { itemId: p.itemId, expectedPrice: 1 }, token: p.token }) },
};
const call = calls[process.env.PROBE_CALL ?? "Set"];
if (call === undefined) throw new Error(`PROBE_CALL: ${Object.keys(calls).join(" or ")}`);

type Value = string | Buffer | null;

/** The values of `EXECUTE name(…)`'s literals as the adapter writes them (sql-literal.ts). */
function valuesOf(literals: string): Value[] {
  const values: Value[] = [];
  for (let i = 0; i < literals.length;) {
    if (literals.startsWith("$_$", i)) {
      const end = literals.indexOf("$_$", i + 3);
      values.push(literals.slice(i + 3, end));
      i = end + 3;
    } else if (literals.startsWith("'\\x", i)) {
      const end = literals.indexOf("'", i + 1);
      values.push(Buffer.from(literals.slice(i + 3, end), "hex"));
      i = end + 1;
    } else if (literals.startsWith("NULL", i)) {
      values.push(null);
      i += 4;
    } else if (literals.startsWith("E'", i)) {
      throw new Error("an escape string among the recorded literals: this probe reads only dollar quotes");
    } else {
      const end = literals.indexOf(",", i);
      values.push(literals.slice(i, end === -1 ? undefined : end).trim());
      i = end === -1 ? literals.length : end;
    }
    while (literals[i] === "," || literals[i] === " ") i++;
  }
  return values;
}

const recorded = await recordCalls(url, PLAYERS, [call]);
const clients: pg.Client[] = [];
try {
  // Each call's statements with the write's NO_WAIT before its COMMIT, as text and as bound statements.
  const texts = recorded.scripts.get(call.name)!.map((script) => {
    const statements = script.replace(/;\n$/, "").split(" \\; ");
    if (statements.length === 1 || !statements.at(-1)!.startsWith("COMMIT")) throw new Error(`${call.name} is not one message whole: nothing to compare`);
    return [...statements.slice(0, -1), NO_WAIT, statements.at(-1)!];
  });
  // As the adapter binds them, every statement prepared already (the connections prepare them below) and none described.
  const bound: Sql[][] = texts.map((statements) => statements.map((text) => {
    const execute = /^EXECUTE (\w+)\((.*)\)$/s.exec(text);
    return execute === null ? text : { name: execute[1]!, text, prepare: false, values: valuesOf(execute[2]!), rows: false };
  }));
  for (let i = 0; i < CONNECTIONS; i++) {
    const client = new pg.Client({ connectionString: url, options: `-c search_path=${recorded.schema}` });
    clients.push(client);
    await client.connect();
    // Prepared by name once, as the adapter's connections do: the extended protocol binds the same statements.
    await client.query(recorded.prepares.join(";\n"));
  }
  const round = async (protocol: "simple" | "extended", ms: number) => {
    let done = 0;
    let failed = 0;
    const end = performance.now() + ms;
    const cpu = process.cpuUsage();
    const database = postgresCpuMicros();
    const start = performance.now();
    await Promise.all(clients.map(async (client, c) => {
      const players = Array.from({ length: PER_WRITE }, (_, j) => c * PER_WRITE + j);
      while (performance.now() < end) {
        let ok: boolean;
        if (protocol === "simple") {
          ok = await client.query([...players.flatMap((p) => texts[p]!), FLUSH].join(";\n")).then(() => true, () => false);
        } else {
          ok = (await runBound(client, [...players.flatMap((p) => bound[p]!), FLUSH])).error === undefined;
        }
        // A serialization failure (pgbench would retry it): the transaction left open is rolled back, nothing counted.
        if (!ok) {
          failed++;
          await client.query("ROLLBACK");
          continue;
        }
        done += PER_WRITE;
      }
    }));
    const seconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    return { rate: done / seconds, node: (used.user + used.system) / done, postgres: database === null ? NaN : (postgresCpuMicros()! - database) / done, failed };
  };
  await round("simple", 1500);
  await round("extended", 1500);
  console.log(`${call.name}, ${PER_WRITE} calls a write on ${CONNECTIONS} connections, as fast as the database goes\n`);
  console.log("| protocol | calls/s | this process's CPU per call | PostgreSQL CPU per call | writes that failed |");
  console.log("|---|---:|---:|---:|---:|");
  for (let i = 0; i < 3; i++) {
    for (const protocol of (i % 2 ? ["extended", "simple"] : ["simple", "extended"]) as ("simple" | "extended")[]) {
      const r = await round(protocol, 4000);
      console.log(`| ${protocol} | ${Math.round(r.rate).toLocaleString("en-US")} | ${r.node.toFixed(1)} µs | ${Number.isNaN(r.postgres) ? "not on this machine" : `${r.postgres.toFixed(1)} µs`} | ${r.failed} |`);
    }
  }
} finally {
  await Promise.all(clients.map((client) => client.end()));
  await recorded.drop();
}
