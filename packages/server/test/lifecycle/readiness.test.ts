import { describe, expect, it } from "vitest";
import { createServer, READINESS_TIMEOUT_MS, type ReadinessCheck } from "../../src/index.js";
import { gatedStorage } from "./gated-storage.js";

async function readyz(server: { fetch: typeof fetch }) {
  const response = await server.fetch("http://playfield.test/readyz");
  return { status: response.status, body: (await response.json()) as unknown, cacheControl: response.headers.get("cache-control") };
}

describe("GET /readyz", () => {
  it("should answer 200 ready while the storage answers, uncached", async () => {
    const server = createServer({ storage: gatedStorage().storage, environment: "test" });
    expect(await readyz(server)).toEqual({ status: 200, body: { status: "ready" }, cacheControl: "no-store" });
  });

  it("should answer 503 naming the storage while the database is gone, and 200 once it is back; /healthz stays 200", async () => {
    const db = gatedStorage();
    const server = createServer({ storage: db.storage, environment: "test" });
    db.fail(true);
    expect(await readyz(server)).toMatchObject({ status: 503, body: { status: "not_ready", failing: ["storage"] } });
    expect((await server.fetch("http://playfield.test/healthz")).status).toBe(200);
    db.fail(false);
    expect(await readyz(server)).toMatchObject({ status: 200, body: { status: "ready" } });
  });

  it("should name every failing check the server was given, one that hangs included", async () => {
    const checks: ReadinessCheck[] = [
      { name: "redis", check: () => Promise.reject(new Error("ECONNREFUSED")) },
      { name: "cache", check: () => new Promise(() => {}) },
      { name: "queue", check: () => Promise.resolve("PONG") },
      { name: "throws", check: () => { throw new Error("not even a promise"); } },
    ];
    const server = createServer({ storage: gatedStorage().storage, environment: "test", readinessChecks: checks });
    const started = performance.now();
    expect(await readyz(server)).toMatchObject({ status: 503, body: { status: "not_ready", failing: ["redis", "cache", "throws"] } });
    // The hanging check counted as failing at the timeout, not later.
    expect(performance.now() - started).toBeLessThan(READINESS_TIMEOUT_MS + 1000);
  });

  it("should run the checks once for probes that arrive together", async () => {
    let runs = 0;
    const server = createServer({
      storage: gatedStorage().storage, environment: "test",
      readinessChecks: [{ name: "counted", check: async () => { runs += 1; await new Promise((resolve) => setTimeout(resolve, 20)); } }],
    });
    const answers = await Promise.all(Array.from({ length: 5 }, () => readyz(server)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(runs).toBe(1);
  });

  it("should answer 503 shutting_down once the server drains, whatever the checks say", async () => {
    const server = createServer({ storage: gatedStorage().storage, environment: "test" });
    server.lifecycle.drain();
    expect(await readyz(server)).toMatchObject({ status: 503, body: { status: "shutting_down" } });
    expect((await server.fetch("http://playfield.test/healthz")).status).toBe(200);
  });

  it("should refuse two checks of one name", () => {
    const check = { name: "redis", check: async () => {} };
    expect(() => createServer({ storage: gatedStorage().storage, readinessChecks: [check, check] })).toThrow(/readiness check "redis" is given twice/);
  });
});
