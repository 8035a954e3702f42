/*
 * A TCP proxy in front of PostgreSQL that counts what a server sends it:
 * transactions (BEGIN), statements, commits, rollbacks and round trips.
 * pg_stat_statements is not loaded on this project's PostgreSQL, and
 * pg_stat_database counts every client of the database (other jobs share
 * it); the proxy counts one server process's own traffic exactly. It reads
 * the frontend messages of the wire protocol (a type byte and a length)
 * and passes every byte through unchanged. It adds a hop, so the benches
 * count through it and time without it.
 */
import { once } from "node:events";
import { connect, createServer, type Socket } from "node:net";

/** What a server sent PostgreSQL through the proxy so far. */
export interface PgCounts {
  /** BEGINs. */
  transactions: number;
  /** Statements other than BEGIN, COMMIT and ROLLBACK. */
  statements: number;
  commits: number;
  /** ROLLBACKs: a transaction refused or run again after a serialization failure. */
  rollbacks: number;
  /** Simple queries and extended-protocol Syncs: each waits for the database's answer. */
  roundTrips: number;
}

/** The connections a server holds to PostgreSQL through the proxy. */
export interface PgConnections {
  open: number;
  /** The most open at once since the proxy started. */
  peak: number;
}

export interface PgCounter {
  /** The database URL to give the server: the target's, with the proxy's address. */
  url: string;
  counts: PgCounts;
  connections: PgConnections;
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;

export const zeroCounts = (): PgCounts => ({ transactions: 0, statements: 0, commits: 0, rollbacks: 0, roundTrips: 0 });

/** `after` minus `before`, field by field. */
export function countsSince(before: PgCounts, after: PgCounts): PgCounts {
  const out = zeroCounts();
  for (const key of Object.keys(out) as (keyof PgCounts)[]) out[key] = after[key] - before[key];
  return out;
}

/** Starts a counting proxy to the PostgreSQL of `target` (a postgres:// URL). */
export async function pgCounter(target: string): Promise<PgCounter> {
  const to = new URL(target);
  const counts = zeroCounts();
  const connections = { open: 0, peak: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    connections.open += 1;
    connections.peak = Math.max(connections.peak, connections.open);
    client.once("close", () => { connections.open -= 1; });
    const upstream = connect(Number(to.port || 5432), to.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => { client.destroy(); upstream.destroy(); });
    }
    const read = frontendReader(counts);
    client.on("data", (chunk: Buffer) => { read(chunk); upstream.write(chunk); });
    upstream.pipe(client);
    client.on("end", () => upstream.end());
    upstream.on("end", () => client.end());
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    counts,
    connections,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A parser of one connection's frontend stream (what a client sends), which may split or join messages anywhere; it adds to `counts`. */
export function frontendReader(counts: PgCounts): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  let started = false;
  let parsed = "";
  const classify = (sql: string) => {
    const text = sql.trimStart();
    const head = text.slice(0, 8).toUpperCase();
    if (head.startsWith("BEGIN")) {
      counts.transactions += 1;
      // The adapter sends a transaction's first statement with its BEGIN, as one simple query.
      const rest = text.indexOf(";");
      if (rest >= 0 && text.slice(rest + 1).trim() !== "") counts.statements += 1;
    } else if (head.startsWith("COMMIT")) counts.commits += 1;
    else if (head.startsWith("ROLLBACK")) counts.rollbacks += 1;
    else counts.statements += 1;
  };
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      if (!started) {
        // The startup packet (or an SSL request before it): a length and a code, no type byte.
        if (pending.length < 8) return;
        const length = pending.readInt32BE(0);
        if (pending.length < length) return;
        if (pending.readInt32BE(4) !== SSL_REQUEST) started = true;
        pending = pending.subarray(length);
        continue;
      }
      if (pending.length < 5) return;
      const length = pending.readInt32BE(1);
      if (pending.length < length + 1) return;
      const type = String.fromCharCode(pending[0]!);
      const body = pending.subarray(5, length + 1);
      if (type === "Q") {
        counts.roundTrips += 1;
        classify(body.toString("utf8", 0, body.indexOf(0)));
      } else if (type === "P") {
        // Parse: the statement's name, then its text.
        const nameEnd = body.indexOf(0);
        parsed = body.toString("utf8", nameEnd + 1, body.indexOf(0, nameEnd + 1));
      } else if (type === "E") classify(parsed);
      else if (type === "S") counts.roundTrips += 1;
      pending = pending.subarray(length + 1);
    }
  };
}
