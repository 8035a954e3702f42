/*
 * Whether the load generator, not the server, set the rate of a run.
 *
 * Both run on the same few cores, so what counts is CPU per request: if wrk
 * spends g µs of CPU on a request and the server s µs, then with the CPU
 * shared evenly wrk could drive s/g times the rate the server can answer.
 * That "headroom" must be at least MIN_HEADROOM, and wrk's thread must not
 * have been busy nearly all the time. A Node load generator fails this
 * check against a Node server (it costs about what the server costs per
 * request, headroom ~1); wrk against the bare node:http echo passes it.
 * Comparing wrk with 2 threads against 1 says little on 2 cores, where the
 * second thread has no core of its own; the CPU figures do.
 */

/** What one load run cost the generator and the server under test. */
export interface RunCost {
  requests: number;
  /** Wall-clock seconds of the run. */
  seconds: number;
  generatorCpuSeconds: number;
  serverCpuSeconds: number;
  /** Generator threads. */
  threads: number;
}

/*
 * 1.5, not 2: on a quiet machine of this project wrk costs ~19 µs per request
 * and the bare echo ~37 µs (1.9×) while wrk's thread is only ~55 % busy, so
 * the echo, the cheapest server, is not generator-bound; a Node generator
 * (~1×) and a wrk slowed by Lua still fail.
 */
export const MIN_HEADROOM = 1.5;
export const MAX_GENERATOR_BUSY = 0.9;

export interface GeneratorVerdict {
  ok: boolean;
  /** Server CPU per request over generator CPU per request. */
  headroom: number;
  /** Share of the generator's threads' wall time spent on CPU. */
  generatorBusy: number;
  generatorUsPerRequest: number;
  serverUsPerRequest: number;
}

export function generatorVerdict(cost: RunCost): GeneratorVerdict {
  const requests = Math.max(cost.requests, 1);
  const headroom = cost.generatorCpuSeconds > 0 ? cost.serverCpuSeconds / cost.generatorCpuSeconds : Infinity;
  const generatorBusy = cost.generatorCpuSeconds / (cost.seconds * cost.threads);
  return {
    ok: headroom >= MIN_HEADROOM && generatorBusy <= MAX_GENERATOR_BUSY,
    headroom,
    generatorBusy,
    generatorUsPerRequest: (cost.generatorCpuSeconds / requests) * 1e6,
    serverUsPerRequest: (cost.serverCpuSeconds / requests) * 1e6,
  };
}

/** One line saying what the check found, for the bench output. */
export function describeVerdict(subject: string, v: GeneratorVerdict): string {
  const figures = `the generator used ${v.generatorUsPerRequest.toFixed(1)} µs of CPU per request, the server ${v.serverUsPerRequest.toFixed(1)} µs: ` +
    `headroom ${v.headroom.toFixed(1)}× (needs ≥ ${MIN_HEADROOM}×); generator busy ${(v.generatorBusy * 100).toFixed(0)} % of its thread (limit ${MAX_GENERATOR_BUSY * 100} %)`;
  return v.ok
    ? `Generator check, ${subject}: ${figures}: passed, the server sets the rate.`
    : `Generator check, ${subject}: ${figures}: FAILED, the load generator is the bottleneck and the figures do not measure the server.`;
}
