import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Storage } from "@playfield/core";
import { createAdminHandler, createMemoryStorage, type AdminRoute } from "@playfield/server";
import { createLogger, createPrometheusMetrics, startServer } from "@playfield/server/node";
import { createMemoryServer } from "@playfield/server-memory";
import { readySocket } from "./realtime-sockets.js";

/*
 * What an operator sees of a server: the request id on every answer, the
 * metrics on the admin listener (never the public port), and the log lines,
 * with no password or token in them (docs/operators.md).
 */

const IDENTITY = "/svc.platform.v1.IdentityService";
const json = { "content-type": "application/json" };

/** A log destination that keeps every line. */
function logSink() {
  const lines: string[] = [];
  return { lines, write: (line: string) => { lines.push(line); }, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, any>) };
}

/** The value of one series in Prometheus text, 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe("x-request-id", () => {
  it("should answer every request with the caller's id when well formed, else a new one", async () => {
    const server = createMemoryServer();
    const idOf = async (init: RequestInit & { path?: string } = {}) =>
      (await server.fetch(`http://playfield.test${init.path ?? "/healthz"}`, init)).headers.get("x-request-id");

    for (const given of ["trace-1", "a.B_c-9", "x".repeat(128)]) expect(await idOf({ headers: { "x-request-id": given } })).toBe(given);
    const fresh = [
      await idOf(), await idOf({ headers: { "x-request-id": "x".repeat(129) } }), await idOf({ headers: { "x-request-id": "two words" } }),
      await idOf({ headers: { "x-request-id": "<script>" } }),
      // Calls, errors and preflights carry one too.
      await idOf({ path: `${IDENTITY}/GetMe`, method: "POST", headers: json, body: "{}" }),
      await idOf({ path: "/nowhere" }),
      await idOf({ path: `${IDENTITY}/GetMe`, method: "OPTIONS", headers: { origin: "http://localhost:5173", "access-control-request-method": "POST" } }),
    ];
    for (const id of fresh) expect(id).toMatch(/^[a-z0-9]{8}-[a-z0-9]+$/);
    expect(new Set(fresh).size).toBe(fresh.length);
  });
});

describe("metrics and the admin listener", () => {
  it("should serve /metrics on the admin port alone, the GetMe series moving with GetMe calls, with realtime and storage series", async () => {
    const server = await startServer({ storage: createMemoryStorage(), environment: "test", port: 0, admin: { port: 0 } });
    try {
      expect(server.admin).not.toBeNull();
      const admin = server.admin!.url;
      // The public port serves neither.
      for (const path of ["/metrics", "/console"]) expect((await fetch(`${server.url}${path}`)).status, path).toBe(404);
      expect((await fetch(`${admin}/console`)).status).toBe(404);

      const metrics = async () => {
        const response = await fetch(`${admin}/metrics`);
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
        expect(response.headers.get("x-request-id")).toBeTruthy();
        return response.text();
      };
      const getMeOk = 'playfield_rpc_calls_total{service="IdentityService",method="GetMe",code="ok"}';
      const before = await metrics();
      const { accessToken } = (await (await fetch(`${server.url}${IDENTITY}/StartGuest`, { method: "POST", headers: json, body: "{}" })).json()) as { accessToken: string };
      for (let i = 0; i < 3; i++) {
        expect((await fetch(`${server.url}${IDENTITY}/GetMe`, { method: "POST", headers: { ...json, authorization: `Bearer ${accessToken}` }, body: "{}" })).status).toBe(200);
      }
      await fetch(`${server.url}${IDENTITY}/GetMe`, { method: "POST", headers: json, body: "{}" });
      const socket = await readySocket(server.url, accessToken);
      const after = await metrics();
      socket.ws.close();

      expect(sample(after, getMeOk) - sample(before, getMeOk)).toBe(3);
      expect(sample(after, 'playfield_rpc_calls_total{service="IdentityService",method="GetMe",code="unauthenticated"}')).toBe(1);
      expect(sample(after, 'playfield_rpc_duration_seconds_count{service="IdentityService",method="GetMe"}')).toBe(4);
      expect(sample(after, "playfield_realtime_connections")).toBe(1);
      expect(sample(after, 'playfield_realtime_frames_total{direction="in"}')).toBeGreaterThanOrEqual(1);
      expect(sample(after, 'playfield_realtime_frames_total{direction="out"}')).toBeGreaterThanOrEqual(1);
      expect(sample(after, 'playfield_storage_transactions_total{outcome="committed"}')).toBeGreaterThan(sample(before, 'playfield_storage_transactions_total{outcome="committed"}'));
      expect(sample(after, "playfield_storage_transaction_duration_seconds_count")).toBeGreaterThan(0);
      expect(after).toMatch(/^playfield_storage_retries_total 0$/m);
      expect(after).toMatch(/^process_cpu_seconds_total /m);
      expect(after).toMatch(/^nodejs_eventloop_lag_seconds /m);
    } finally {
      await server.close();
    }
  });

  it("should list in docs/operators.md every series it serves, and no other", async () => {
    const pooled: Storage = { ...createMemoryStorage(), stats: () => ({ retries: 2, pool: { max: 10, open: 3, idle: 1, waiting: 0 } }) };
    const text = await createPrometheusMetrics({ storage: pooled }).text();
    const served = new Set([...text.matchAll(/^# TYPE (\w+) /gm)].map((m) => m[1]!));
    const doc = readFileSync(new URL("../../../docs/operators.md", import.meta.url), "utf8");
    const listed = new Set([...doc.matchAll(/`((?:playfield|process|nodejs)_\w+)`/g)].map((m) => m[1]!));
    expect([...served].sort()).toEqual([...listed].sort());
    expect(text).toMatch(/^playfield_storage_retries_total 2$/m);
    expect(text).toMatch(/^playfield_storage_pool_connections\{state="open"\} 3$/m);
  });

  it("should keep each server's series in its own registry", async () => {
    const one = createPrometheusMetrics({ processMetrics: false });
    const two = createPrometheusMetrics({ processMetrics: false });
    const server = createMemoryServer({ metrics: one });
    createMemoryServer({ metrics: two });
    await server.fetch(`http://playfield.test${IDENTITY}/GetMe`, { method: "POST", headers: json, body: "{}" });
    const series = 'playfield_rpc_calls_total{service="IdentityService",method="GetMe",code="unauthenticated"}';
    expect(sample(await one.text(), series)).toBe(1);
    expect(sample(await two.text(), series)).toBe(0);
  });

  it("should answer with the first route that answers, else 404, each answer with a request id", async () => {
    const calls: string[] = [];
    const pass: AdminRoute = async (request) => { calls.push(`pass ${new URL(request.url).pathname}`); return undefined; };
    const hello: AdminRoute = async (request) => (new URL(request.url).pathname === "/hello" ? new Response("hello") : undefined);
    const never: AdminRoute = async () => new Response("too late");
    const handle = createAdminHandler({ routes: [pass, hello, never] });
    const answered = await handle(new Request("http://admin/hello", { headers: { "x-request-id": "op-7" } }));
    expect([answered.status, await answered.text(), answered.headers.get("x-request-id")]).toEqual([200, "hello", "op-7"]);
    const fallThrough = await createAdminHandler({ routes: [pass, hello] })(new Request("http://admin/console"));
    expect(fallThrough.status).toBe(404);
    expect(await fallThrough.json()).toMatchObject({ code: "not_found" });
    expect(fallThrough.headers.get("x-request-id")).toMatch(/^[a-z0-9]{8}-/);
    expect(calls).toEqual(["pass /hello", "pass /console"]);
  });
});

describe("logs", () => {
  afterEach(() => { vi.restoreAllMocks(); });

  it("should write a line per call at debug with method, status, code, duration and request id, and no password or token", async () => {
    const sink = logSink();
    const server = createMemoryServer({ log: createLogger("debug", sink) });
    const password = "correct horse battery staple";
    const call = async (method: string, body: object, token?: string, requestId?: string) => {
      const response = await server.fetch(`http://playfield.test${IDENTITY}/${method}`, {
        method: "POST", body: JSON.stringify(body),
        headers: { ...json, ...(token && { authorization: `Bearer ${token}` }), ...(requestId && { "x-request-id": requestId }) },
      });
      return (await response.json()) as { accessToken: string; refreshToken: string };
    };
    const signedUp = await call("SignUp", { username: "ada", password, birthdate: "1990-05-17" });
    const signedIn = await call("SignIn", { username: "ada", password });
    const refreshed = await call("Refresh", { refreshToken: signedIn.refreshToken });
    await call("GetMe", {}, refreshed.accessToken, "getme-1");
    await call("SignIn", { username: "ada", password: `${password}!` });

    const secrets = [password, ...[signedUp, signedIn, refreshed].flatMap((auth) => [auth.accessToken, auth.refreshToken])];
    for (const secret of secrets) expect(secret.length).toBeGreaterThan(8);
    const text = sink.lines.join("");
    for (const secret of secrets) expect(text.includes(secret), "a secret reached the log").toBe(false);

    const lines = sink.parsed();
    expect(lines.find((line) => line.reqId === "getme-1")).toMatchObject({
      level: "debug", msg: "call", method: "svc.platform.v1.IdentityService/GetMe", status: 200, code: "ok", ms: expect.any(Number),
      req: { method: "POST", path: `${IDENTITY}/GetMe`, authorization: "Bearer [redacted]" },
    });
    expect(lines.map((line) => `${line.method} ${line.code}`)).toEqual([
      "svc.platform.v1.IdentityService/SignUp ok", "svc.platform.v1.IdentityService/SignIn ok", "svc.platform.v1.IdentityService/Refresh ok",
      "svc.platform.v1.IdentityService/GetMe ok", "svc.platform.v1.IdentityService/SignIn unauthenticated",
    ]);
  });

  it("should write a failure at error with its request id", async () => {
    const sink = logSink();
    const inner = createMemoryStorage();
    const broken: Storage = { init: (t) => inner.init(t), clear: () => inner.clear(), transact: async () => { throw new Error("disk on fire"); } };
    const server = createMemoryServer({ storage: broken, log: createLogger("warn", sink) });
    const response = await server.fetch(`http://playfield.test${IDENTITY}/StartGuest`, { method: "POST", headers: { ...json, "x-request-id": "boom-1" }, body: "{}" });
    expect(response.status).toBe(500);
    const lines = sink.parsed();
    // At warn, calls that went well write nothing; the failure writes its error and its call, both with the id.
    expect(lines.every((line) => line.level === "error" && line.reqId === "boom-1")).toBe(true);
    expect(lines.find((line) => line.msg === "internal error")?.err).toMatchObject({ message: "disk on fire" });
    expect(lines.find((line) => line.msg === "call")).toMatchObject({ status: 500, code: "internal" });
  });

  it("should write nothing when no logger is given", async () => {
    const out = vi.spyOn(process.stdout, "write");
    const server = createMemoryServer();
    await server.fetch(`http://playfield.test${IDENTITY}/StartGuest`, { method: "POST", headers: json, body: "{}" });
    await server.fetch(`http://playfield.test${IDENTITY}/GetMe`, { method: "POST", headers: json, body: "{}" });
    expect(out).not.toHaveBeenCalled();
  });
});
