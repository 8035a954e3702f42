/*
 * Runs HTTP cases under wrk in alternating rounds and reports medians.
 *
 * Before any load, each case is called once and must answer what it claims
 * (status and body), so that a run never measures a stream of 401s. Every
 * warm-up run, the first of each case, passes the generator check or the
 * bench stops; every measured run is checked again. Rounds run the cases in
 * turn, reversed every other round, so that drift on a shared machine hits
 * every case alike; a ratio is taken within each round (against a baseline
 * loaded minutes apart would measure the machine), and the table shows the
 * median of those ratios.
 */
import { loadavg } from "node:os";
import { describeVerdict, generatorVerdict, type GeneratorVerdict } from "./generator-check.js";
import { formatRate } from "./measure.js";
import { processCpuSeconds } from "./process-cpu.js";
import { ensureWrk, runWrk, type WrkResult } from "./wrk.js";

export interface HttpCase {
  name: string;
  /** The process of the server under load. */
  pid: number;
  url: string;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  /** Requests to pick from at random, one per request (runWrk's `mix`); `headers` and `body` are then the one checked before the load. */
  mix?: readonly { headers?: Record<string, string>; body?: string }[];
  /** The case this one is a ratio of (same round); none for a baseline. */
  against?: string;
  /** How ratios against this case name it; default its name. */
  short?: string;
  /** The least ratio the design asks for. */
  target?: number;
  /** Checked on one answer before the load: the case answers what its name says. */
  expect: (status: number, body: string) => boolean;
}

export interface HttpRoundsOptions {
  rounds?: number;
  seconds?: number;
  warmSeconds?: number;
  connections?: number;
}

export interface CaseFigures {
  case: HttpCase;
  runs: WrkResult[];
  /** Medians over the rounds. */
  rate: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** Median of the per-round ratios to `case.against`. */
  ratio: number | null;
  /** The generator check over the case's runs (CPU summed over them). */
  verdict: GeneratorVerdict;
}

export interface HttpRounds {
  figures: Map<string, CaseFigures>;
  /** What the run was: generator, rounds, load on the machine. */
  setup: string;
  /** Lines of the generator checks made before the load. */
  checks: string[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** One wrk run of a case, with the server's CPU over the same time. */
async function load(c: HttpCase, seconds: number, connections: number): Promise<{ result: WrkResult; serverCpuSeconds: number }> {
  const before = processCpuSeconds(c.pid);
  const result = await runWrk({ url: c.url, method: c.method, body: c.body, headers: c.headers, mix: c.mix, seconds, connections });
  return { result, serverCpuSeconds: processCpuSeconds(c.pid) - before };
}

export async function runHttpRounds(cases: HttpCase[], options: HttpRoundsOptions = {}): Promise<HttpRounds> {
  const { rounds = 5, seconds = 3, warmSeconds = 2, connections = 50 } = options;
  ensureWrk();
  const load1 = loadavg()[0]!;
  for (const c of cases) {
    const response = await fetch(c.url, { method: c.method ?? (c.body ? "POST" : "GET"), body: c.body, headers: { ...(c.body ? { "content-type": "application/json" } : {}), ...c.headers } });
    const text = await response.text();
    if (!c.expect(response.status, text)) throw new Error(`${c.name}: unexpected answer before the load: ${response.status} ${text.slice(0, 300)}`);
  }
  // Warm-up: the JIT settles; and wrk must not be the limit on any case, the fastest included.
  const checks: string[] = [];
  for (const c of cases) {
    const { result, serverCpuSeconds } = await load(c, warmSeconds, connections);
    const verdict = generatorVerdict({ ...result, serverCpuSeconds, threads: 1 });
    if (!verdict.ok) throw new Error(describeVerdict(`warm-up of ${c.name}`, verdict));
    if (c.against === undefined) checks.push(describeVerdict(`warm-up of ${c.name}`, verdict));
  }
  const runs = new Map<string, { result: WrkResult; serverCpuSeconds: number }[]>(cases.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const c of round % 2 ? [...cases].reverse() : cases) runs.get(c.name)!.push(await load(c, seconds, connections));
  }
  const figures = new Map<string, CaseFigures>();
  for (const c of cases) {
    const own = runs.get(c.name)!;
    const ratios = c.against === undefined ? null : own.map((r, i) => r.result.rate / runs.get(c.against!)![i]!.result.rate);
    const sum = (f: (r: (typeof own)[number]) => number) => own.reduce((total, r) => total + f(r), 0);
    figures.set(c.name, {
      case: c,
      runs: own.map((r) => r.result),
      rate: median(own.map((r) => r.result.rate)),
      p50Ms: median(own.map((r) => r.result.p50Ms)),
      p99Ms: median(own.map((r) => r.result.p99Ms)),
      errors: sum((r) => r.result.errors),
      ratio: ratios && median(ratios),
      verdict: generatorVerdict({
        requests: sum((r) => r.result.requests), seconds: sum((r) => r.result.seconds),
        generatorCpuSeconds: sum((r) => r.result.generatorCpuSeconds), serverCpuSeconds: sum((r) => r.serverCpuSeconds), threads: 1,
      }),
    });
  }
  const setup = `wrk, 1 thread, ${connections} keep-alive connections; ${rounds} alternating rounds of ${seconds} s per case after a ${warmSeconds} s warm-up; ` +
    `figures are medians over the rounds, ratios the median of the per-round ratios. Machine load average (1 min): ${load1.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end.`;
  return { figures, setup, checks };
}

/**
 * A Markdown table of some cases: rate, latency, ratio against their
 * baseline and the target, then the server's CPU per request and its ratio
 * (baseline CPU over case CPU: on a loaded machine, where the share of CPU
 * each server gets drifts, the steadier of the two), and the generator's headroom.
 */
export function printHttpTable(title: string, figures: CaseFigures[]): void {
  console.log(`\n### ${title}\n`);
  console.log("| case | req/s | p50 | p99 | errors | ratio | target | server CPU per request | CPU ratio | wrk headroom |");
  console.log("|---|---:|---:|---:|---:|---|---|---:|---:|---:|");
  const byName = (name: string) => figures.find((f) => f.case.name === name);
  for (const f of figures) {
    const base = f.case.against === undefined ? undefined : byName(f.case.against);
    const ratio = f.ratio === null ? "baseline" : `${f.ratio.toFixed(2)} of ${base?.case.short ?? f.case.against}`;
    const target = f.case.target === undefined ? "" : `≥ ${f.case.target}: ${f.ratio !== null && f.ratio >= f.case.target ? "met" : "**missed**"}`;
    const cpuRatio = base ? (base.verdict.serverUsPerRequest / f.verdict.serverUsPerRequest).toFixed(2) : "";
    console.log(`| ${f.case.name} | ${formatRate(f.rate)} | ${f.p50Ms.toFixed(2)} ms | ${f.p99Ms.toFixed(2)} ms | ${f.errors} | ${ratio} | ${target} | ` +
      `${f.verdict.serverUsPerRequest.toFixed(0)} µs | ${cpuRatio} | ${f.verdict.headroom.toFixed(1)}× |`);
  }
}

/**
 * Fails the bench (exit code 1, after the tables are printed) when a case
 * answered errors under load or when the generator was the limit of a case.
 */
export function assertValid(rounds: HttpRounds): void {
  const problems: string[] = [];
  for (const f of rounds.figures.values()) {
    if (f.errors > 0) problems.push(`${f.case.name}: ${f.errors} errors under load`);
    if (!f.verdict.ok) problems.push(describeVerdict(f.case.name, f.verdict));
  }
  if (problems.length) {
    console.log(`\n**Not valid:**\n\n${problems.map((p) => `- ${p}`).join("\n")}`);
    process.exitCode = 1;
  }
}
