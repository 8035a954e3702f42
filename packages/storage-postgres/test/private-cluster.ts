/*
 * A PostgreSQL cluster of a test's own (initdb in a temp folder, a free
 * port), for tests that stop the server or read its write-ahead log
 * positions: the shared test server is left alone, and nothing else writes
 * to this one. Run as the `postgres` user when the test runs as root
 * (initdb refuses root). Its folder is removed by `destroy`.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Where initdb and pg_ctl are: PLAYFIELD_TEST_PG_BIN, else the newest /usr/lib/postgresql/N/bin, else `pg_config --bindir`. */
export async function findPostgresBin(): Promise<string | null> {
  const candidates: string[] = [];
  if (process.env.PLAYFIELD_TEST_PG_BIN) candidates.push(process.env.PLAYFIELD_TEST_PG_BIN);
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => join(debian, version, "bin")));
  }
  const bindir = await run("pg_config", ["--bindir"]).then(({ stdout }) => stdout.trim(), () => "");
  if (bindir) candidates.push(bindir);
  return candidates.find((dir) => existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"))) ?? null;
}

export interface PrivateCluster {
  /** Where it listens, for a pg.Pool: host, port, user, database. */
  readonly connection: { host: string; port: number; user: string; database: string };
  /** Starts it (again, after a stop). */
  start(): Promise<void>;
  /** Stops it as a crash would: every server process killed at once, nothing written out. */
  crash(): Promise<void>;
  /** Stops it (if running) and removes its folder. */
  destroy(): Promise<void>;
}

/**
 * A new cluster, started, with `settings` (`-c name=value` each) on top of initdb's. The write-ahead log is
 * flushed on a commit only when the commit asks (`wal_writer_delay` at its 10 s maximum, the WAL writer never
 * flushing for the amount written, no background writes: no autovacuum, no checkpoint, `wal_level=minimal`), so
 * that a test sees what the commits themselves flushed.
 */
export async function createPrivateCluster(bin: string, settings: Record<string, string> = {}): Promise<PrivateCluster> {
  const folder = await mkdtemp(join(tmpdir(), "playfield-cluster-"));
  const data = join(folder, "data");
  const asRoot = process.getuid?.() === 0;
  /** Runs a PostgreSQL binary, as `postgres` when this process is root. */
  const pg = (name: string, args: string[]) => asRoot
    ? run("runuser", ["-u", "postgres", "--", join(bin, name), ...args])
    : run(join(bin, name), args);
  let running = false;
  try {
    if (asRoot) {
      const { stdout } = await run("id", ["-u", "postgres"]);
      const { stdout: group } = await run("id", ["-g", "postgres"]);
      await chown(folder, Number(stdout.trim()), Number(group.trim()));
    }
    await pg("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "--no-instructions"]);
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  const port = await freePort();
  const options = {
    listen_addresses: "127.0.0.1",
    unix_socket_directories: folder,
    wal_writer_delay: "10s",
    wal_writer_flush_after: "1GB",
    wal_level: "minimal",
    max_wal_senders: "0",
    autovacuum: "off",
    checkpoint_timeout: "1h",
    max_wal_size: "1GB",
    fsync: "on",
    synchronous_commit: "on",
    ...settings,
  };
  const serverOptions = Object.entries(options).map(([name, value]) => `-c ${name}=${value}`).join(" ");
  const cluster: PrivateCluster = {
    connection: { host: "127.0.0.1", port, user: "postgres", database: "postgres" },
    async start() {
      await pg("pg_ctl", ["-D", data, "-l", join(folder, "log"), "-o", `-p ${port} ${serverOptions}`, "-w", "-t", "30", "start"]);
      running = true;
    },
    async crash() {
      running = false;
      await pg("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    },
    async destroy() {
      if (running) await cluster.crash().catch(() => undefined);
      await rm(folder, { recursive: true, force: true });
    },
  };
  try {
    await cluster.start();
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
  return cluster;
}

/** A TCP port free on 127.0.0.1 right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
