/*
 * HTTP load from wrk (Debian package `wrk`), a native generator in its own
 * process: a closed loop of keep-alive connections, one thread by default.
 * A load generator written in Node costs about as much CPU per request as
 * the Node server it loads, so on this machine it measured itself; wrk costs
 * a few µs per request. Each run also reports the CPU seconds wrk itself
 * used, so that generator-check.ts can tell whether wrk was the limit.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface WrkOptions {
  url: string;
  /** Default POST with a body, GET without. */
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  /** Default 50. */
  connections?: number;
  /** Default 1. */
  threads?: number;
  seconds: number;
  /**
   * Lua run for every request, before it is sent (tests use it to make the
   * generator deliberately slow). Leave unset: wrk then sends one prebuilt request.
   */
  perRequestLua?: string;
  /**
   * Requests to pick from at random, one per request (many players' tokens
   * and keys): each one's headers over `headers`, its body instead of `body`.
   */
  mix?: readonly { headers?: Record<string, string>; body?: string }[];
}

export interface WrkResult {
  requests: number;
  /** Connect, read, write and timeout errors, and answers that are not 2xx or 3xx. */
  errors: number;
  /** Wall-clock seconds of the run, as wrk measured it. */
  seconds: number;
  rate: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU seconds (user + system) wrk used during the run. */
  generatorCpuSeconds: number;
}

const WRK = "/usr/bin/wrk";

/** Whether wrk is on this machine. */
export function hasWrk(): boolean {
  return existsSync(WRK);
}

/** Installs wrk with apt-get when it is missing (the bench runs as root here and in CI); throws with what to do when it cannot. */
export function ensureWrk(): void {
  if (hasWrk()) return;
  console.error("wrk is missing: installing the Debian package (apt-get install wrk) …");
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    execFileSync("apt-get", ["install", "-y", "-qq", "wrk"], { stdio: "inherit", env });
    if (!hasWrk()) {
      execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
      execFileSync("apt-get", ["install", "-y", "-qq", "wrk"], { stdio: "inherit", env });
    }
  } catch {
    // Reported below.
  }
  if (!hasWrk()) throw new Error("the HTTP benchmarks need wrk: install it with `apt-get install wrk` (Debian/Ubuntu) and run again");
}

/** The Lua script: method, body and the summary as one JSON line; body and method come from the environment, so nothing needs quoting. */
function script(perRequestLua: string | undefined, mix: WrkOptions["mix"]): string {
  return `
wrk.method = os.getenv("WRK_METHOD")
local body = os.getenv("WRK_BODY")
if body ~= "" then wrk.body = body end
${perRequestLua ? `request = function()\n${perRequestLua}\nreturn wrk.format()\nend` : ""}
${mix ? mixLua(mix) : ""}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\nWRK_JSON {"requests":%d,"durationUs":%d,"errors":%d,"p50Us":%d,"p99Us":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`;
}

/** Lua that sends one of `mix` per request, picked at random; each one's headers (over wrk's) are built once per thread. */
function mixLua(mix: NonNullable<WrkOptions["mix"]>): string {
  const text = (value: string) => JSON.stringify(value); // a JSON string of these (ASCII, no control characters) reads the same in Lua
  const entries = mix.map((m) => `{ headers = { ${Object.entries(m.headers ?? {}).map(([k, v]) => `[${text(k)}] = ${text(v)}`).join(", ")} }${m.body === undefined ? "" : `, body = ${text(m.body)}`} }`);
  return `
local mix = { ${entries.join(",\n  ")} }
init = function(args)
  for _, m in ipairs(mix) do
    local h = {}
    for k, v in pairs(wrk.headers) do h[k] = v end
    for k, v in pairs(m.headers) do h[k] = v end
    m.headers = h
  end
end
request = function()
  local m = mix[math.random(#mix)]
  return wrk.format(nil, nil, m.headers, m.body)
end
`;
}

/** Runs wrk once and answers its figures; throws when wrk fails or prints no summary. */
export async function runWrk(options: WrkOptions): Promise<WrkResult> {
  const { connections = 50, threads = 1, seconds, headers = {} } = options;
  const url = new URL(options.url);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) throw new Error("load goes to loopback only");
  const body = options.body ?? "";
  const method = options.method ?? (body ? "POST" : "GET");
  const dir = mkdtempSync(join(tmpdir(), "playfield-wrk-"));
  const scriptPath = join(dir, "run.lua");
  if (options.mix?.some((m) => [m.body ?? "", ...Object.entries(m.headers ?? {}).flat()].some((v) => !/^[\x20-\x7e]*$/.test(v)))) {
    throw new Error("mix: headers and bodies of printable ASCII only");
  }
  writeFileSync(scriptPath, script(options.perRequestLua, options.mix));
  const allHeaders = body ? { "content-type": "application/json", ...headers } : headers;
  const args = [
    "-t", String(threads), "-c", String(connections), "-d", `${seconds}s`, "--timeout", "5s", "--latency", "-s", scriptPath,
    ...Object.entries(allHeaders).flatMap(([name, value]) => ["-H", `${name}: ${value}`]),
    options.url,
  ];
  try {
    // bash's `times` prints the CPU time of its finished children: wrk's own cost.
    const { code, stdout, stderr } = await run("bash", ["-c", `"${WRK}" "$@"; status=$?; times; exit $status`, "wrk", ...args], {
      ...process.env, WRK_METHOD: method, WRK_BODY: body,
    });
    if (code !== 0) throw new Error(`wrk exited with ${code}: ${stderr || stdout}`);
    const summary = /WRK_JSON (\{.*\})/.exec(stdout);
    if (!summary) throw new Error(`wrk printed no summary: ${stdout}`);
    const s = JSON.parse(summary[1]!) as { requests: number; durationUs: number; errors: number; p50Us: number; p99Us: number };
    const times = stdout.trim().split("\n").at(-1)!;
    const cpu = [...times.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0);
    const wall = s.durationUs / 1e6;
    return {
      requests: s.requests, errors: s.errors, seconds: wall, rate: s.requests / wall,
      p50Ms: s.p50Us / 1000, p99Ms: s.p99Us / 1000, generatorCpuSeconds: cpu,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "", stderr = "";
    child.stdout.on("data", (c: Buffer) => { stdout += c.toString(); });
    child.stderr.on("data", (c: Buffer) => { stderr += c.toString(); });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}
