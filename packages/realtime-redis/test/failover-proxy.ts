/*
 * `playfield-server` processes of the two-process suite: each a real child
 * process on one PostgreSQL schema and one Redis key prefix, and a small
 * failover proxy in front of them, as a load balancer without affinity
 * would be: each new connection goes to the first process that accepts it.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, connect, type Socket } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../../server/bin/playfield-server.js", import.meta.url));

export interface ServerProcess {
  url: string;
  /** Every line it printed on stdout. */
  lines: string[];
  /** kill -9 of the launcher and the server under it (one process group). */
  kill9(): Promise<void>;
  /** SIGTERM, and the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the command; resolves once it listens. */
export async function startServerProcess(args: string[]): Promise<ServerProcess> {
  // DATABASE_URL and REDIS_URL cleared: the flags say where everything is.
  const child = spawn(process.execPath, [bin, "--port", "0", ...args], { env: { ...process.env, DATABASE_URL: "", REDIS_URL: "" }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => { stderr += chunk.toString(); });
  const exited = once(child, "exit") as Promise<[number | null, string | null]>;
  const lines: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on("line", (line) => {
      lines.push(line);
      const found = /listening on (http:\/\/\S+)/.exec(line)?.[1];
      if (found) resolve(found);
    });
    void exited.then(([code]) => reject(new Error(`exited with ${String(code)}: ${stderr}`)));
  });
  // The lines printed right after the URL.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return {
    url,
    lines,
    async kill9() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(-child.pid!, "SIGKILL");
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      process.kill(-child.pid!, "SIGTERM");
      return (await exited)[0];
    },
  };
}

/** Runs the command to its end (a start that must fail); its exit code and stderr. */
export async function runServerProcess(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [bin, "--port", "0", ...args], { env: { ...process.env, DATABASE_URL: "", REDIS_URL: "" }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => { stderr += chunk.toString(); });
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stderr };
}

export interface FailoverProxy {
  url: string;
  close(): Promise<void>;
}

/** A TCP proxy on a free port: each connection goes to the first of `targets` that accepts it. */
export async function failoverProxy(targets: string[]): Promise<FailoverProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.pause();
    const attempt = (i: number) => {
      if (i >= targets.length) {
        client.destroy();
        return;
      }
      const { hostname, port } = new URL(targets[i]!);
      const upstream = connect(Number(port), hostname);
      let connected = false;
      sockets.add(upstream);
      upstream.on("close", () => sockets.delete(upstream));
      upstream.once("error", () => {
        if (!connected) attempt(i + 1);
        else client.destroy();
      });
      upstream.once("connect", () => {
        connected = true;
        client.pipe(upstream).pipe(client);
        client.resume();
        client.on("error", () => upstream.destroy());
        upstream.on("error", () => client.destroy());
        upstream.on("close", () => client.destroy());
        client.on("close", () => upstream.destroy());
      });
    };
    attempt(0);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
