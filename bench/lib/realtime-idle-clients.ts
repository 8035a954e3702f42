/*
 * Idle realtime clients of bench/realtime-capacity.bench.ts, in a process of
 * their own (forked with IPC; a process holds at most 20,000 sockets here):
 * each authenticates with its token, then sends the client's JSON ping
 * every 25 s (as @playfield/client does), the pings of all spread over the
 * 25 s. Reports how many connected, how many closed since (dropped), and
 * over a measured window its own CPU and event-loop lag, so the parent can
 * tell whether the load generator kept up.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { WebSocket } from "ws";

type Request = { type: "connect"; url: string; tokens: string[] } | { type: "measure-start" } | { type: "measure-end" } | { type: "stop" };

const CLIENT_PING_MS = 25_000;
const TICK_MS = 100;
const CONCURRENCY = 100;

const sockets: WebSocket[] = [];
let dropped = 0;
let failed = 0;
let stopping = false;

function open(url: string, token: string): Promise<WebSocket | null> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    let ready = false;
    ws.once("open", () => ws.send(JSON.stringify({ type: "auth", token })));
    ws.on("message", (data) => {
      if (!ready && data.toString().includes("\"ready\"")) {
        ready = true;
        resolve(ws);
      }
    });
    ws.once("error", () => { if (!ready) resolve(null); });
    ws.once("close", () => {
      if (!ready) resolve(null);
      else if (!stopping) dropped += 1;
    });
  });
}

async function connectAll(url: string, tokens: string[]): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < tokens.length) {
      const ws = await open(url, tokens[next++]!);
      if (ws) sockets.push(ws);
      else failed += 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  // Each tick pings the next share of the sockets, so each is pinged once per CLIENT_PING_MS.
  let cursor = 0;
  const perTick = Math.ceil(sockets.length / (CLIENT_PING_MS / TICK_MS));
  setInterval(() => {
    for (let i = 0; i < perTick && sockets.length > 0; i++) {
      const ws = sockets[cursor++ % sockets.length]!;
      if (ws.readyState === WebSocket.OPEN) ws.send("{\"type\":\"ping\"}");
    }
  }, TICK_MS);
}

let loop = monitorEventLoopDelay({ resolution: 5 });
let cpuFrom = process.cpuUsage();
let wallFrom = performance.now();

process.on("message", (request: Request) => {
  if (request.type === "connect") void connectAll(request.url, request.tokens).then(() => process.send!({ type: "connected", opened: sockets.length, failed }));
  if (request.type === "measure-start") {
    loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    cpuFrom = process.cpuUsage();
    wallFrom = performance.now();
    dropped = 0;
    process.send!({ type: "measure-start" });
  }
  if (request.type === "measure-end") {
    loop.disable();
    const cpu = process.cpuUsage(cpuFrom);
    process.send!({
      type: "measure-end", dropped, open: sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length,
      lagMaxMs: loop.max / 1e6, lagP99Ms: loop.percentile(99) / 1e6,
      cpuSeconds: (cpu.user + cpu.system) / 1e6, seconds: (performance.now() - wallFrom) / 1000,
    });
  }
  if (request.type === "stop") {
    stopping = true;
    for (const ws of sockets) ws.terminate();
    process.exit(0);
  }
});
process.send!({ type: "started" });
