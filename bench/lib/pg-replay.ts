/*
 * PostgreSQL alone, doing what Playfield asks of it: the messages one call
 * sends (recorded on a PostgreSQL storage in this process), replayed by
 * pgbench from 50 clients with no Node, no HTTP and no Playfield. Its rate is
 * the most any server could get from that database for the same work on
 * this machine, so a call's rate on PostgreSQL can be read against it as
 * well as against memory: how much of what the database allows Playfield
 * reaches, and whether a target against memory is reachable at all.
 *
 * Each recorded message goes as one simple query (its statements joined
 * with pgbench's `\;`): EXECUTE of statements each connection prepared
 * once, its values written in as literals. The adapter sends the same
 * statements through the extended protocol, its values bound as they are
 * (bound-statements.ts), which costs the database less: pgbench's scripts
 * cannot, so this rate is a floor of what the database alone allows. The
 * calls are recorded on one connection, so the statements' names are one
 * set: every connection of pgbench prepares them all before its first
 * call. pgbench runs one connection per player, each
 * replaying its player's call over and over, so no two calls of one player
 * are ever in flight together (as if a server queued each player's calls):
 * what conflicts is only what different players share. It retries
 * serialization failures and deadlocks as often as the adapter does.
 *
 * A call's checks of the copies it took (docs/storage.md, "Checked copies")
 * compare a row with what it held when the call was recorded; replayed over
 * and over, the row holds what the call wrote, and the check would fail. So
 * each check is prepared to do the same read and comparison without ever
 * dividing by zero (`replayableCheck`).
 *
 * A call that is one message whole goes, under load, in one write with
 * other callers' (whole-messages.ts): `inWrites` groups the players'
 * scripts so, each group one write on one connection, as the adapter
 * writes it.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "@playfield/server-memory";
import pg from "pg";
import { createSqlStorage, pgDatabase } from "@playfield/storage-postgres";
import { DEFAULT_MAX_ATTEMPTS } from "../../packages/storage-postgres/src/retry-policy.js";
import { inlineParams } from "../../packages/storage-postgres/src/sql-literal.js";
import { simpleTexts, type Sql } from "../../packages/storage-postgres/src/sql-statement.js";
import { FLUSH, NO_WAIT } from "../../packages/storage-postgres/src/whole-messages.js";
import { dropSchema, freshSchema } from "../../packages/storage-postgres/test/postgres-schema.js";
import { seedBenchWorld, type BenchPlayer } from "./bench-world.js";

const PGBENCH = "/usr/bin/pgbench";

/** Whether pgbench (Debian package postgresql-client) is on this machine. */
export function hasPgbench(): boolean {
  return existsSync(PGBENCH);
}

/** A call to record: its path and each player's request. */
export interface ReplayCall {
  name: string;
  path: string;
  request(player: BenchPlayer): { body: object; token: string };
}

/** Each call's recorded messages per player, in a schema that pgbench replays them on. */
export interface Recorded {
  url: string;
  schema: string;
  /** Per call name, per player: the pgbench script of one call. */
  scripts: Map<string, string[]>;
  /** The PREPARE of every statement the scripts execute, each one statement. */
  prepares: string[];
  /** Messages one call sent (the first player's), per call name. */
  messages: Map<string, number>;
  drop(): Promise<void>;
}

/**
 * Seeds the bench world with `players` on PostgreSQL at `url`, makes every
 * call twice per player (warm, as under load), then records the third.
 */
export async function recordCalls(url: string, players: number, calls: readonly ReplayCall[]): Promise<Recorded> {
  const schema = freshSchema("bench_replay");
  const sent: string[] = [];
  const prepares: string[] = [];
  // One connection: the statements it prepares are the only ones, under names the scripts can share.
  const database = pgDatabase(new pg.Pool({ connectionString: url, max: 1 }));
  // A message as the texts of a simple query (sql-statement.ts): pgbench sends its statements as EXECUTE, prepared apart.
  const record = (statements: readonly Sql[]) => {
    const texts = statements.flatMap(simpleTexts);
    if (texts.includes("DEALLOCATE ALL")) throw new Error("the recorded calls prepared more statements than a connection keeps");
    prepares.push(...texts.filter((text) => text.startsWith("PREPARE ")).map(replayableCheck));
    const run = texts.filter((text) => !text.startsWith("PREPARE "));
    if (run.length > 0) sent.push(run.join(" \\; "));
    return statements;
  };
  // Record what each message is as the adapter wrote it (a single statement with bound parameters inlined), its PREPAREs apart.
  const recording: typeof database = {
    ...database,
    session: (fn) => database.session((session) => fn({
      prepared: session.prepared,
      query: (text, params) => {
        sent.push(inlineParams(text, params ?? []));
        return session.query(text, params);
      },
      batch: (statements) => session.batch(record(statements)),
    })),
    whole: database.whole && ((compose) => database.whole!((prepared) => {
      const message = compose(prepared);
      record(message.statements);
      return message;
    })),
  };
  const storage = createSqlStorage(recording, { schema });
  const server = await startServer({ port: 0, storage, environment: "production", datastore: { requestsPerMinute: 1e15, storedBytes: 1e15 } });
  try {
    const world = await seedBenchWorld(server, players);
    const scripts = new Map<string, string[]>();
    const messages = new Map<string, number>();
    for (const call of calls) {
      const perPlayer: string[] = [];
      for (const player of world.players) {
        const send = async () => {
          const { body, token } = call.request(player);
          const answer = await server.handle(new Request(`${server.url}${call.path}`, {
            method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          }));
          if (answer.status !== 200) throw new Error(`${call.name}: ${answer.status} ${await answer.text()}`);
        };
        await send();
        await send();
        // The reading calls' counts this process kept are written now, not in the middle of the recorded call (docs/datastore.md).
        await server.lifecycle.idle();
        sent.length = 0;
        await send();
        if (!messages.has(call.name)) messages.set(call.name, sent.length);
        perPlayer.push(sent.map((message) => `${message};\n`).join(""));
      }
      scripts.set(call.name, perPlayer);
    }
    return { url, schema, scripts, prepares, messages, drop: () => dropSchema(url, schema) };
  } finally {
    await server.close();
    await storage.close();
  }
}

/** A check of a copy (table-layout.ts) as the same read and comparison that never fails (with its write, if it has one); any other statement as it is. */
export function replayableCheck(prepare: string): string {
  return prepare.replace(" AS SELECT 1 / count(*)::int AS ok ", " AS SELECT 1 / (count(*)::int + 1) AS ok ")
    .replace(" AS SELECT 1 / (1 - count(*)::int) AS ok ", " AS SELECT 1 / (2 - count(*)::int) AS ok ")
    // A check and a write as one (checkedUpdate): the same comparison, made true, and the same write.
    .replace(/ AND data = \$2::text RETURNING 1\) SELECT 1 \/ count\(\*\)::int AS ok FROM written$/, () => " AND (data = $2::text) IS NOT NULL RETURNING 1) SELECT 1 / (count(*)::int + 1) AS ok FROM written");
}

/**
 * The scripts of calls that are one message whole, `perWrite` to a script, each written as whole-messages.ts writes
 * them: every call's COMMIT without waiting for the disk, one flush at the end. Scripts of calls that send more than one
 * message cannot go together: they stay one per script.
 */
export function inWrites(scripts: readonly string[], perWrite: number): { scripts: string[]; callsPerRun: number } {
  const whole = /^[^\n]* \\; COMMIT;\n$/;
  if (!scripts.every((script) => whole.test(script))) return { scripts: [...scripts], callsPerRun: 1 };
  const noWait = scripts.map((script) => script.replace(/ \\; COMMIT;\n$/, ` \\; ${NO_WAIT} \\; COMMIT`));
  const writes: string[] = [];
  for (let at = 0; at + perWrite <= noWait.length; at += perWrite) writes.push(`${noWait.slice(at, at + perWrite).join(" \\; ")} \\; ${FLUSH};\n`);
  return { scripts: writes, callsPerRun: perWrite };
}

export interface PgbenchResult {
  /** Calls replayed per second. */
  rate: number;
  /** Calls in runs of a script that failed after DEFAULT_MAX_ATTEMPTS tries. */
  failed: number;
  /** Runs again after a serialization failure or deadlock, in all. */
  retries: number;
  /** CPU of this machine's PostgreSQL processes per replayed call, in µs (null: the database runs elsewhere). */
  cpuPerCall: number | null;
}

/**
 * CPU time so far of the PostgreSQL processes on this machine, in µs, the
 * backends that exited included (their time is the postmaster's children's
 * once it reaped them); null when none runs here. Other work of the
 * database in the meantime (autovacuum) counts too.
 */
export function postgresCpuMicros(): number | null {
  if (!existsSync("/proc/self/stat")) return null;
  let ticks = 0;
  let found = false;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue;
    }
    const close = stat.lastIndexOf(")");
    if (stat.slice(stat.indexOf("(") + 1, close) !== "postgres") continue;
    found = true;
    // utime, stime, cutime, cstime: the 14th to 17th fields of the line.
    const fields = stat.slice(close + 2).split(" ");
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return found ? (ticks * 1e6) / clockTicks() : null;
}

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  return ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
}

/**
 * Replays `scripts` for `seconds`, script i over and over on connection i: as fast as the database goes, or at `rate`
 * calls a second in all (pgbench's --rate: the database then idles between calls, as under a server slower than it).
 * Each run of a script makes `callsPerRun` calls (`inWrites`).
 */
export async function replay(recorded: Recorded, scripts: readonly string[], seconds: number, rate?: number, callsPerRun = 1): Promise<PgbenchResult> {
  const folder = mkdtempSync(join(tmpdir(), "playfield-replay-"));
  try {
    const file = join(folder, "calls.sql");
    // Each connection prepares the statements once (pgbench keeps a client's variables from one run of the script to the next);
    // DEALLOCATE ALL first, in case pgbench runs the first script again after a failure.
    const prepare = `\\if :prepared = 0\nDEALLOCATE ALL;\n${recorded.prepares.map((text) => `${text};\n`).join("")}\\set prepared 1\n\\endif\n`;
    writeFileSync(file, prepare + scripts.map((script, i) => `\\${i === 0 ? "if" : "elif"} :client_id = ${i}\n${script}`).join("") + "\\endif\n");
    const cpuBefore = postgresCpuMicros();
    const args = [...(rate === undefined ? [] : ["--rate", String(Math.max(1, Math.round(rate / callsPerRun)))]), "-n", "-M", "simple", "-D", "prepared=0", "-c", String(scripts.length), "-j", "1", "-T", String(seconds), `--max-tries=${DEFAULT_MAX_ATTEMPTS}`, "-f", file, recorded.url];
    const out = await new Promise<string>((resolve, reject) => {
      execFile(PGBENCH, args, { env: { ...process.env, PGOPTIONS: `-c search_path=${recorded.schema}` }, maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`pgbench: ${stderr || error.message}`));
        else resolve(stdout);
      });
    });
    // The backends of pgbench's connections end as it exits: their time reaches the postmaster's once it reaps them.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const cpuAfter = postgresCpuMicros();
    const number = (pattern: RegExp) => Number(pattern.exec(out)?.[1] ?? NaN);
    const calls = number(/number of transactions actually processed: (\d+)/) * callsPerRun;
    return {
      rate: number(/tps = ([\d.]+)/) * callsPerRun,
      failed: number(/number of failed transactions: (\d+)/) * callsPerRun,
      // A retry runs the whole script again: every call of it.
      retries: (number(/total number of retries: (\d+)/) || 0) * callsPerRun,
      cpuPerCall: cpuBefore === null || cpuAfter === null || !(calls > 0) ? null : (cpuAfter - cpuBefore) / calls,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
