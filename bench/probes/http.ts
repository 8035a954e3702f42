/*
 * Probe (not a bench): the http bench's server CPU per request (wrk, 50 connections) for GetMe and
 * BuyItem alone, alternating: ROUNDS (default 2) of SECONDS (default 4). CHILD_FLAGS are node flags for
 * the server (--trace-gc), whose other output goes to CHILD_LOG; PROBE_ONLY=BuyItem runs one case.
 *   node --conditions=@playfield/source --import tsx bench/probes/http.ts
 */
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { runWrk } from "../lib/wrk.js";
import { processCpuSeconds } from "../lib/process-cpu.js";

// The bench's server child, with CHILD_FLAGS (e.g. --trace-gc); its output past the first line goes to CHILD_LOG.
const child = spawn(process.execPath, [...(process.env.CHILD_FLAGS?.split(" ") ?? []), "--conditions=@playfield/source", "--import", "tsx",
  fileURLToPath(new URL("../lib/playfield-server.ts", import.meta.url))], { stdio: ["ignore", "pipe", "inherit"] });
const lines = createInterface({ input: child.stdout! });
const log = createWriteStream(process.env.CHILD_LOG ?? "/dev/null");
// The first line that is JSON: the server's; GC traces and the like go to the log.
const firstLine = await new Promise<string>((resolve) => {
  let found = false;
  lines.on("line", (line) => {
    if (!found && line.startsWith("{")) {
      found = true;
      resolve(line);
    } else log.write(`${line}\n`);
  });
});
const server = { child, firstLine };
try {
  const { url, token, itemId } = JSON.parse(server.firstLine) as { url: string; token: string; itemId: string };
  const rpc = (method: string) => `${url}/svc.platform.v1.${method}`;
  const cases = {
    GetMe: { url: rpc("IdentityService/GetMe"), body: "{}" },
    BuyItem: { url: rpc("EconomyService/BuyItem"), body: JSON.stringify({ itemId, expectedPrice: 1 }) },
  };
  const seconds = Number(process.env.SECONDS ?? 4);
  const pid = server.child.pid!;
  const figures: Record<string, number[]> = { GetMe: [], BuyItem: [] };
  for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round++) {
    for (const [name, c] of Object.entries(cases)) {
      if (process.env.PROBE_ONLY && !process.env.PROBE_ONLY.split(",").includes(name)) continue;
      const cpu = processCpuSeconds(pid);
      const result = await runWrk({ url: c.url, method: "POST", body: c.body, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, seconds, connections: 50 });
      const used = processCpuSeconds(pid) - cpu;
      const us = (used / result.requests) * 1e6;
      figures[name]!.push(us);
      console.log(`${name}: ${Math.round(result.requests / seconds)} req/s, ${us.toFixed(1)} µs server CPU per request`);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  if (figures.GetMe!.length && figures.BuyItem!.length) console.log(`CPU ratio GetMe/BuyItem: ${(median(figures.GetMe!) / median(figures.BuyItem!)).toFixed(2)}`);
} finally {
  server.child.kill();
}
