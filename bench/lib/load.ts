import { Agent, request } from "node:http";

/*
 * A small closed-loop HTTP load generator: `connections` keep-alive
 * connections each send the next request as soon as the last answer arrives,
 * for a fixed time. Bounded in count and time; loopback only.
 */

export interface LoadResult {
  requests: number;
  errors: number;
  rate: number;
  p50Ms: number;
  p99Ms: number;
}

export interface LoadOptions {
  url: string;
  body: string;
  headers?: Record<string, string>;
  connections?: number;
  seconds?: number;
  /** Answers with another status count as errors. */
  expectStatus?: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { connections = 50, seconds = 4, expectStatus = 200 } = options;
  const url = new URL(options.url);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) throw new Error("load goes to loopback only");
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const headers = { "content-type": "application/json", "content-length": String(Buffer.byteLength(options.body)), ...options.headers };
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;

  const one = () => new Promise<void>((resolve) => {
    const started = performance.now();
    const req = request({ agent, host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers }, (res) => {
      res.resume();
      res.on("end", () => {
        if (res.statusCode !== expectStatus) errors++;
        latencies.push(performance.now() - started);
        resolve();
      });
    });
    req.on("error", () => { errors++; resolve(); });
    req.end(options.body);
  });

  const start = performance.now();
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < end) await one();
  }));
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0;
  return { requests: latencies.length, errors, rate: latencies.length / elapsed, p50Ms: at(0.5), p99Ms: at(0.99) };
}
