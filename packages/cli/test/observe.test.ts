import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { runServer, startServerProcess, type ServerProcess } from "./server-process.js";

/*
 * What an operator sees of the command (docs/operators.md): /metrics on the
 * admin port and not on the public one, x-request-id on every answer and in
 * the JSON log line of its call, and no password or token in the log. One
 * spawned server for all of it.
 */

const IDENTITY = "/svc.platform.v1.IdentityService";

/** The value of one series in Prometheus text, 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe("playfield-server --admin-port N --log-level debug", () => {
  let server: ServerProcess;
  let admin: string;

  beforeAll(async () => {
    server = await startServerProcess(["--admin-port", "0", "--log-level", "debug"]);
    admin = /^ {2}admin: (http:\/\/\S+)\/metrics/m.exec(server.lines.join("\n"))![1]!;
  }, 30_000);
  afterAll(async () => { await server?.stop(); });

  const call = async (method: string, body: object, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}${IDENTITY}/${method}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
    return { response, body: (await response.json()) as Record<string, string> };
  };
  const metrics = async () => {
    const response = await fetch(`${admin}/metrics`);
    expect(response.status).toBe(200);
    return response.text();
  };

  it("should serve Prometheus metrics on the admin port, GetMe's series moving with GetMe calls, with realtime and storage series", async () => {
    const series = 'playfield_rpc_calls_total{service="IdentityService",method="GetMe",code="ok"}';
    const before = await metrics();
    const { accessToken } = (await call("StartGuest", {})).body;
    for (let i = 0; i < 2; i++) expect((await call("GetMe", {}, { authorization: `Bearer ${accessToken!}` })).response.status).toBe(200);
    const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}/realtime`);
    await new Promise((resolve, reject) => { ws.once("open", resolve); ws.once("error", reject); });
    ws.send(JSON.stringify({ type: "auth", token: accessToken }));
    await new Promise((resolve) => ws.once("message", resolve));
    const after = await metrics();
    ws.close();
    expect(sample(after, series) - sample(before, series)).toBe(2);
    expect(after).toMatch(/^# TYPE playfield_rpc_duration_seconds histogram$/m);
    expect(sample(after, "playfield_realtime_connections")).toBe(1);
    expect(sample(after, 'playfield_realtime_frames_total{direction="in"}')).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'playfield_storage_transactions_total{outcome="committed"}')).toBeGreaterThan(0);
    expect(after).toMatch(/^playfield_storage_retries_total 0$/m);
    expect(after).toMatch(/^process_resident_memory_bytes /m);
  });

  it("should serve neither /metrics nor /console on the public port", async () => {
    for (const path of ["/metrics", "/console", "/console/"]) expect((await fetch(`${server.url}${path}`)).status, path).toBe(404);
  });

  it("should answer with x-request-id and write it in the call's JSON log line, with no password or token in the log", async () => {
    const password = "correct horse battery staple";
    const username = `ops_${process.pid}`;
    const signedUp = (await call("SignUp", { username, password, birthdate: "1990-05-17" })).body;
    const signedIn = (await call("SignIn", { username, password })).body;
    const refreshed = (await call("Refresh", { refreshToken: signedIn.refreshToken! })).body;
    const traced = await call("GetMe", {}, { authorization: `Bearer ${refreshed.accessToken!}`, "x-request-id": "ops-trace-1" });
    expect(traced.response.headers.get("x-request-id")).toBe("ops-trace-1");
    const fresh = (await call("GetMe", {})).response.headers.get("x-request-id");
    expect(fresh).toMatch(/^[a-z0-9]{8}-[a-z0-9]+$/);

    // The line is written as the answer leaves: give stdout a moment.
    const lineOf = (id: string) => server.lines.find((line) => line.startsWith("{") && (JSON.parse(line) as { reqId?: string }).reqId === id);
    for (let i = 0; i < 50 && (!lineOf("ops-trace-1") || !lineOf(fresh!)); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(JSON.parse(lineOf("ops-trace-1")!)).toMatchObject({
      level: "debug", msg: "call", method: "svc.platform.v1.IdentityService/GetMe", status: 200, code: "ok", ms: expect.any(Number),
    });
    expect(JSON.parse(lineOf(fresh!)!)).toMatchObject({ status: 401, code: "unauthenticated" });

    // Past the banner every line is JSON.
    const banner = server.lines.findIndex((line) => line.startsWith("{"));
    for (const line of server.lines.slice(banner)) expect(() => JSON.parse(line), line).not.toThrow();
    const log = server.lines.join("\n");
    const secrets = [password, ...[signedUp, signedIn, refreshed].flatMap((auth) => [auth.accessToken!, auth.refreshToken!])];
    for (const secret of secrets) expect(log.includes(secret), "a secret reached the log").toBe(false);
  });
});

describe("playfield-server with its admin port taken", () => {
  it("should say which port and how to choose another", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const { code, stderr } = await runServer([], { PLAYFIELD_ADMIN_PORT: String(port) });
      expect(code).toBe(1);
      expect(stderr).toBe(`playfield-server: the admin port ${port} on 127.0.0.1 is already in use. `
        + "Choose another with --admin-port N or PLAYFIELD_ADMIN_PORT=N (0 picks a free one), or --admin-port off for none.\n");
    } finally {
      taken.close();
    }
  }, 30_000);
});
