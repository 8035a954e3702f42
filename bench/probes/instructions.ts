/*
 * Probe (not a bench): instructions the server executes per HTTP request, counted by valgrind's
 * callgrind, for the bare echo and the http bench's Playfield server (GetMe, ListCreditPacks, GET
 * /healthz). A count does not depend on the load of the machine, so two versions of the code compare
 * on a busy one where wrk's rates scatter. Each server runs under callgrind with counting off; each
 * case is sent WARM requests (default 60 000) so the JIT settles, then counted twice over N (default
 * 10 000), over 50 keep-alive connections; the lower count stands. The figure is the main thread's
 * (V8's compiler threads apart; the column "all threads" shows them, and a case still being compiled
 * shows a gap there). Slow: about two minutes a case. Needs valgrind (apt-get install valgrind).
 *   node --conditions=@playfield/source --import tsx bench/probes/instructions.ts
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const WARM = Number(process.env.WARM ?? 60_000);
const N = Number(process.env.N ?? 10_000);
const CONNECTIONS = 50;

interface Case {
  name: string;
  method: "GET" | "POST";
  path: string;
  token?: string;
}

/** Sends `count` requests over keep-alive connections, each waiting for its answer; throws unless every one is a 200. */
async function send(url: URL, c: Case, count: number): Promise<void> {
  const lines = [`${c.method} ${c.path} HTTP/1.1`, `Host: ${url.host}`];
  if (c.method === "POST") lines.push("Content-Type: application/json", "Content-Length: 2");
  if (c.token) lines.push(`Authorization: Bearer ${c.token}`);
  const request = Buffer.from(`${lines.join("\r\n")}\r\n\r\n${c.method === "POST" ? "{}" : ""}`);
  let sent = 0;
  await Promise.all(Array.from({ length: CONNECTIONS }, () => new Promise<void>((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let pending = "";
    const next = () => {
      if (sent >= count) return void socket.end(resolve);
      sent++;
      socket.write(request);
    };
    socket.on("connect", next);
    socket.on("error", reject);
    socket.on("data", (chunk: Buffer) => {
      pending += chunk.toString("latin1");
      for (;;) {
        const end = pending.indexOf("\r\n\r\n");
        if (end === -1) return;
        const length = Number(/content-length: (\d+)/i.exec(pending.slice(0, end))?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        if (!pending.startsWith("HTTP/1.1 200")) return reject(new Error(`${c.name}: ${pending.slice(0, end + 4 + length)}`));
        pending = pending.slice(end + 4 + length);
        next();
      }
    });
  })));
}

/** The instructions of a callgrind dump (its `totals:` line). */
function totalOf(file: string): number {
  const line = readFileSync(file, "utf8").split("\n").find((l) => l.startsWith("totals:") || l.startsWith("summary:"));
  return Number(line?.split(" ")[1] ?? 0);
}

/** Runs a bench server under callgrind and answers, per case, instructions per request: main thread and all threads. */
async function measure(script: string, cases: (firstLine: string) => { url: URL; cases: Case[] }): Promise<Map<string, { main: number; all: number }>> {
  const dir = mkdtempSync(join(tmpdir(), "playfield-callgrind-"));
  const child = spawn("valgrind", [
    "--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes", "--smc-check=all-non-file", `--callgrind-out-file=${dir}/cg`,
    process.execPath, "--conditions=@playfield/source", "--import", "tsx", fileURLToPath(new URL(`../lib/${script}`, import.meta.url)),
  ], { stdio: ["ignore", "pipe", "ignore"] });
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  const control = (...args: string[]) => execFileSync("callgrind_control", [...args, String(child.pid)], { stdio: "ignore" });
  const figures = new Map<string, { main: number; all: number }>();
  try {
    const { url, cases: list } = cases(firstLine);
    let dumps = 0;
    for (const c of list) {
      await send(url, c, WARM);
      // Two counts; the lower stands (a count made while the JIT still swaps code in runs high).
      for (let round = 0; round < 2; round++) {
        control("--zero");
        control("--instr=on");
        await send(url, c, N);
        control("--dump");
        control("--instr=off");
        dumps++;
        // One file per thread of each dump: cg.<dump>-01 is the main thread.
        const files = readdirSync(dir).filter((f) => f.startsWith(`cg.${dumps}-`));
        const main = totalOf(join(dir, `cg.${dumps}-01`)) / N;
        const all = files.reduce((sum, f) => sum + totalOf(join(dir, f)), 0) / N;
        const known = figures.get(c.name);
        if (known === undefined || main < known.main) figures.set(c.name, { main, all });
      }
    }
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

const echo = await measure("echo-server.ts", (line) => ({ url: new URL(line), cases: [{ name: "bare node:http JSON echo", method: "POST", path: "/echo" }] }));
const playfield = await measure("playfield-server.ts", (line) => {
  const { url, token } = JSON.parse(line) as { url: string; token: string };
  return {
    url: new URL(url),
    cases: [
      { name: "Playfield: GetMe (access token)", method: "POST", path: "/svc.platform.v1.IdentityService/GetMe", token },
      { name: "Playfield: ListCreditPacks (no auth)", method: "POST", path: "/svc.platform.v1.EconomyService/ListCreditPacks" },
      { name: "Playfield: GET /healthz", method: "GET", path: "/healthz" },
    ],
  };
});
const base = [...echo.values()][0]!.main;
console.log(`\nInstructions per request under callgrind (${N} requests after ${WARM} of warm-up, ${CONNECTIONS} connections)\n`);
console.log("| case | main thread | all threads | echo / case |");
console.log("|---|---:|---:|---:|");
for (const [name, f] of [...echo, ...playfield]) {
  console.log(`| ${name} | ${Math.round(f.main).toLocaleString("en")} | ${Math.round(f.all).toLocaleString("en")} | ${(base / f.main).toFixed(2)} |`);
}
