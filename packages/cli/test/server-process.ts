/*
 * The `playfield-server` command as a child process, for the suites that
 * must run the real command (its arguments, graceful shutdown, durability
 * after kill -9, world files, several processes on one database): start it
 * and wait until it listens, or run it to its end, and call its API over
 * HTTP. The other packages' suites import this file by its path: it is
 * test code, not part of the published package.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** The command as npm links it: the committed launcher, which runs the source in its own process in a checkout. */
export const SERVER_BIN = fileURLToPath(new URL("../bin/playfield-server.js", import.meta.url));

/** How the command ended, and everything it printed. */
export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface ServerProcess {
  url: string;
  /** The command's process id: the server runs in it (no child), so this is the process to signal or measure. */
  pid: number;
  /** Every line it printed on stdout so far. */
  lines: string[];
  /** Resolves once the process has exited. */
  exited: Promise<ServerExit>;
  /** SIGTERM to the command, as an orchestrator sends it (a graceful shutdown); how it exited. */
  stop(): Promise<ServerExit>;
  /** kill -9 of the command's process id, as a user or a supervisor sends it. */
  kill9(): Promise<void>;
}

/**
 * Spawns the command in a process group of its own (a terminal's Ctrl-C
 * aimed at the test run does not reach it). PORT=0 picks a free port; DATABASE_URL and
 * REDIS_URL are cleared so that only the arguments say where the data is;
 * PLAYFIELD_ENV is test unless `env` says otherwise.
 */
function spawnServer(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [SERVER_BIN, ...args], {
    // Test mode (a fast password hash, no account creation limit) unless a test says otherwise; --dev and --demo win over it.
    // The bare command is production: cli.test.ts checks it as it is.
    env: { ...process.env, PORT: "0", DATABASE_URL: "", REDIS_URL: "", PLAYFIELD_ENV: "test", PLAYFIELD_PUBLIC_URL: "", ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true,
  });
  const lines: string[] = [];
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => { stderr += chunk.toString(); });
  const stdout = createInterface({ input: child.stdout });
  stdout.on("line", (line) => { lines.push(line); });
  // "close" rather than "exit": everything printed has been read by then.
  const exited = (once(child, "close") as Promise<[number | null, NodeJS.Signals | null]>)
    .then(([code, signal]) => ({ code, signal, stdout: lines.map((line) => `${line}\n`).join(""), stderr }));
  return { child, lines, stdout, exited, running: () => child.exitCode === null && child.signalCode === null };
}

/** Runs the command to its end (--help, export, import, or a start that must fail). */
export function runServer(args: string[], env: Record<string, string> = {}): Promise<ServerExit> {
  return spawnServer(args, env).exited;
}

/** Starts the command; resolves once it listens, and rejects with its stderr when it exits first. */
export async function startServerProcess(args: string[], env: Record<string, string> = {}): Promise<ServerProcess> {
  const { child, lines, stdout, exited, running } = spawnServer(args, env);
  const url = await new Promise<string>((resolve, reject) => {
    stdout.on("line", (line) => {
      const found = /listening on (http:\/\/\S+)/.exec(line)?.[1];
      if (found) resolve(found);
    });
    void exited.then(({ code, stderr }) => reject(new Error(`playfield-server ${args.join(" ")} exited with ${String(code)}: ${stderr}`)));
  });
  // The lines printed right after the URL (which processes it shares with).
  await new Promise((resolve) => setTimeout(resolve, 50));
  return {
    url,
    pid: child.pid!,
    lines,
    exited,
    stop() {
      if (running()) child.kill("SIGTERM");
      return exited;
    },
    async kill9() {
      if (running()) process.kill(child.pid!, "SIGKILL");
      await exited;
    },
  };
}

/** Calls `Service/Method` of the server at `url` with a JSON body; the answer, or an error naming the status and body. */
export async function call(url: string, path: string, body: object, token?: string): Promise<Record<string, any>> {
  const response = await fetch(`${url}/svc.platform.v1.${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, any>;
  if (!response.ok) throw new Error(`${path} answered ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}
