/*
 * The query interface on a PostgreSQL server, through a node-postgres Pool:
 * one pooled client per session, every client in the driver's pipeline
 * mode (pg-queries.ts).
 */
import pg from "pg";
import { GroupedCommits } from "./grouped-commits.js";
import { firstFailure, pgQuery, retire, runAll } from "./pg-queries.js";
import type { Listener, ListenHandlers, SqlDatabase, SqlSession } from "./sql-database.js";
import type { Sql } from "./sql-database.js";

/** The pause before listening again after the listening connection was lost. */
const RELISTEN_MS = 1_000;

/** NOTIFY, its channel and payload bound as parameters. */
const NOTIFY = "SELECT pg_notify($1, $2)";

/** Options of `pgDatabase`. */
export interface PgDatabaseOptions {
  /**
   * Where the listening connection goes, when not where the pool's do: a
   * pool behind PgBouncer in transaction mode, which cannot hold a LISTEN,
   * listens through a URL that reaches PostgreSQL directly (or a PgBouncer
   * in session mode).
   */
  listenUrl?: string;
  /**
   * Keep each statement prepared on the connection that sent it (default
   * true: pg-queries.ts). False when the pool's connections go through a
   * pooler in transaction mode (PgBouncer), which hands each transaction to
   * any server connection: statements then go unnamed, parsed each time.
   */
  prepare?: boolean;
  /**
   * Send the transactions that are whole, of many callers, together on one
   * connection under load, one wait for the disk for them all (default
   * true: grouped-commits.ts). False sends each on a connection of its own.
   */
  together?: boolean;
}

/**
 * A database on a node-postgres pool. The pool is the caller's when one is
 * given (`close` ends it all the same); a connection string or a config
 * makes a new one.
 *
 * @example
 * const database = pgDatabase("postgres://postgres@127.0.0.1:5432/test");
 */
export function pgDatabase(source: string | pg.PoolConfig | pg.Pool, options: PgDatabaseOptions = {}): SqlDatabase {
  const pool = source instanceof pg.Pool ? source : new pg.Pool(typeof source === "string" ? { connectionString: source } : source);
  // Every connection pipelines, the caller's pool's too: set before any query goes on it.
  pool.on("connect", (client) => void ((client as { pipeline: boolean }).pipeline = true));
  survivesLostConnections(pool);
  // The adapter's statements are short: JIT compiling, which PostgreSQL starts once a plan's estimate
  // passes jit_above_cost (a counted page on a large board can), costs them far more than it saves.
  pool.on("connect", (client) => void client.query("SET jit = off").catch(() => undefined));
  const prepare = options.prepare !== false;
  const whole = options.together === false ? undefined : new GroupedCommits(pool, prepare);
  // The server processes of the pool's connections: notices sent through them are this process's own.
  const own = new Set<number>();
  pool.on("connect", (client) => own.add(backendPid(client) ?? 0));
  pool.on("remove", (client) => own.delete(backendPid(client) ?? 0));
  return {
    kind: "postgres",
    pool: () => ({ max: pool.options.max ?? 10, open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async session(fn) {
      const client = await pool.connect();
      const session = new PgSession(client, prepare);
      try {
        return await fn(session);
      } finally {
        client.release(retire(client, session.failed));
      }
    },
    whole: whole && ((message) => whole.send(message)),
    close: () => pool.end(),
    listen: (channel, handlers) => listenOn(listenConfig(pool, options.listenUrl), { pool, whole, own }, channel, handlers),
  };
}

/**
 * A connection can drop (a server restart, a terminated backend). node-postgres
 * then emits `error` on its client, and on the pool for an idle one: without
 * a listener either would end the process. The queries on it fail with the
 * error all the same, so the listeners have nothing to do (the pool discards
 * an idle client; a session or a write releases a broken one as broken).
 */
export function survivesLostConnections(pool: pg.Pool): void {
  pool.on("error", () => undefined);
  // A client's own listener: the pool listens only while it is idle, not while a session or a write holds it.
  pool.on("connect", (client) => void client.on("error", () => undefined));
}

/**
 * The listening connection's settings: `listenUrl`'s when given, else the
 * pool's. The pool keeps a given password out of its options' enumerable
 * keys (so it does not show in logs), so a spread alone would connect
 * without it.
 */
export function listenConfig(pool: pg.Pool, listenUrl?: string): pg.ClientConfig {
  const application_name = "playfield-listen";
  if (listenUrl !== undefined) return { connectionString: listenUrl, application_name };
  return { ...pool.options, password: pool.options.password, application_name };
}

/** Where `listenOn` sends notices: the pool, and its grouped commits, if transactions go together. */
interface NoticeRoute {
  pool: pg.Pool;
  whole: GroupedCommits | undefined;
  /** The server processes of the pool's connections. */
  own: ReadonlySet<number>;
}

/**
 * LISTEN on a connection of its own (not the pool's: it stays open), again
 * after a pause whenever it is lost. Notices go out as a transaction of
 * their own in the next group of whole transactions (grouped-commits.ts:
 * that transaction runs after the ones before it in the group, so a notice
 * never comes before the commits it tells of); else
 * on the listening connection while it listens (one at a time: row-notices.ts
 * sends them so), else through the pool.
 */
function listenOn(config: pg.ClientConfig, route: NoticeRoute, channel: string, handlers: ListenHandlers): Listener {
  let stopped = false;
  let client: pg.Client | undefined;
  let listening: pg.Client | undefined;
  let again: ReturnType<typeof setTimeout> | undefined;
  const connect = async () => {
    if (stopped) return;
    const current = new pg.Client(config);
    client = current;
    const lost = () => {
      if (client !== current) return;
      client = undefined;
      listening = undefined;
      handlers.listening(false);
      current.end().catch(() => undefined);
      if (!stopped) (again = setTimeout(connect, RELISTEN_MS)).unref();
    };
    current.on("error", lost);
    current.on("end", lost);
    current.on("notification", (message) => {
      // Its own notices (sent on this connection or the pool's) tell of writes this process already dropped its copies
      // of: a copy made since is newer than the notice, and would be dropped for nothing.
      const ownNotice = message.processId === backendPid(current) || route.own.has(message.processId);
      if (client === current && message.channel === channel && !ownNotice) handlers.notice(message.payload ?? "");
    });
    try {
      await current.connect();
      await current.query(`LISTEN "${channel.replaceAll("\"", "\"\"")}"`);
      if (client === current) {
        listening = current;
        handlers.listening(true);
      }
    } catch {
      lost();
    }
  };
  void connect();
  return {
    async notify(payload) {
      const notify: Sql = { text: NOTIFY, params: [channel, payload] };
      if (route.whole !== undefined) await route.whole.send({ statements: [{ text: "BEGIN", params: [] }, notify, { text: "COMMIT", params: [] }], readOnly: true });
      else await (listening ?? route.pool).query(NOTIFY, [channel, payload]);
    },
    async stop() {
      stopped = true;
      clearTimeout(again);
      const current = client;
      client = undefined;
      listening = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}

/** The server process of a connection (its BackendKeyData), which node-postgres keeps without typing it. */
function backendPid(client: pg.Client): number | null {
  return (client as unknown as { processID: number | null }).processID;
}

/** A session on one pooled client (a class: every transaction makes one). */
class PgSession implements SqlSession {
  /** The first failure met, if any: it decides whether the client is reused (pg-queries.ts `retire`). */
  failed: unknown = undefined;

  constructor(private readonly client: pg.PoolClient, private readonly prepare: boolean) {}

  async query<Row>(text: string, params: readonly unknown[] = []): Promise<Row[]> {
    try {
      // Several statements in one simple query answer one result each: the last one is the one asked for.
      const result = await this.client.query(pgQuery(this.client, { text, params }, this.prepare)) as pg.QueryResult | pg.QueryResult[];
      return ((Array.isArray(result) ? result.at(-1) : result)?.rows ?? []) as Row[];
    } catch (error) {
      this.failed ??= error;
      throw error;
    }
  }

  async batch<Row>(statements: readonly Sql[]): Promise<Row[][]> {
    const outcomes = await runAll(this.client, statements, this.prepare);
    const error = firstFailure(outcomes);
    if (error !== undefined) {
      this.failed ??= error;
      throw error;
    }
    return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<pg.QueryResult>).value.rows as Row[]);
  }
}
