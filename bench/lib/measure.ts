/*
 * Shared helpers of the benchmarks: timing loops and the Markdown table they
 * print. Every figure is shown with a ratio against a baseline measured in
 * the same run, because this machine (2 shared cores) is noisy.
 */

export interface Figure {
  name: string;
  /** Operations per second. */
  rate: number;
  /** Extra columns, already formatted. */
  extra?: Record<string, string>;
}

/** Calls `op` one after another for `seconds` (after a warm-up) and answers calls per second. */
export async function measure(name: string, op: () => unknown, seconds = Number(process.env.BENCH_SECONDS ?? 1.5)): Promise<Figure> {
  // Warm up: 50 calls, or a tenth of the time for slow operations.
  const warm = performance.now() + seconds * 100;
  for (let i = 0; i < 50 && performance.now() < warm; i++) await op();
  let calls = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 10; i++) await op();
    calls += 10;
  }
  return { name, rate: calls / ((performance.now() - start) / 1000) };
}

/** Times one run of `op` in milliseconds. */
export async function timeOnce(op: () => unknown): Promise<number> {
  const start = performance.now();
  await op();
  return performance.now() - start;
}

/** The median of several timings of `op`, in milliseconds. */
export async function medianMs(op: () => unknown, runs = 21): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await timeOnce(op));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export function formatDuration(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(2)} µs`;
}

export function formatRate(rate: number): string {
  return rate < 100 ? rate.toFixed(1) : Math.round(rate).toLocaleString("en");
}

/** Prints a Markdown table: each figure's rate, time per operation, and ratio to the baseline. */
export function printTable(title: string, figures: Figure[], baseline: Figure): void {
  const extras = [...new Set(figures.flatMap((f) => Object.keys(f.extra ?? {})))];
  console.log(`\n### ${title}\n`);
  console.log(`| case | ops/s | per op | vs ${baseline.name} |${extras.map((e) => ` ${e} |`).join("")}`);
  console.log(`|---|---:|---:|---:|${extras.map(() => "---:|").join("")}`);
  for (const f of figures) {
    const cells = extras.map((e) => ` ${f.extra?.[e] ?? ""} |`).join("");
    console.log(`| ${f.name} | ${formatRate(f.rate)} | ${formatDuration(1000 / f.rate)} | ${(f.rate / baseline.rate).toFixed(2)} |${cells}`);
  }
}
