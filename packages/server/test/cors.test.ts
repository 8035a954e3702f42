import { once } from "node:events";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { ServerOptions } from "@playfield/server-memory";
import { testServer, TRANSPORTS, type TestServer } from "./fixtures.js";

const START_GUEST = "/svc.platform.v1.IdentityService/StartGuest";
const DEV_PAGE = "http://localhost:5173";
const GAME = "https://game.example";
const PRODUCTION: ServerOptions = { environment: "production", webOrigins: [GAME] };

/** A browser's preflight of a JSON call with the client's headers. */
function preflight(t: TestServer, path: string, origin: string) {
  return t.fetch(`${t.baseUrl}${path}`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type,x-svc-client" },
  });
}

function corsHeaders(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => name.startsWith("access-control-")));
}

describe.each(TRANSPORTS)("CORS (%s)", (kind) => {
  it("should answer a preflight from a loopback page outside production, on every path", async () => {
    await using t = await testServer(kind, { environment: "development" });
    for (const path of [START_GUEST, "/svc.platform.v1.CatalogService/ListExperiences", "/realtime", "/healthz", "/no/such/path"]) {
      const response = await preflight(t, path, DEV_PAGE);
      expect(response.status, path).toBe(204);
      expect(response.headers.get("access-control-allow-origin"), path).toBe(DEV_PAGE);
      expect(response.headers.get("vary"), path).toBe("origin");
      const allowed = response.headers.get("access-control-allow-headers")!.split(", ");
      expect(allowed).toEqual(expect.arrayContaining(["authorization", "content-type", "x-svc-client", "connect-protocol-version", "connect-timeout-ms"]));
      expect(response.headers.get("access-control-allow-methods")).toContain("POST");
      expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });

  it("should allow the configured web origins in production, and no loopback page", async () => {
    await using t = await testServer(kind, PRODUCTION);
    expect((await preflight(t, START_GUEST, GAME)).headers.get("access-control-allow-origin")).toBe(GAME);
    for (const origin of [DEV_PAGE, "https://evil.example", "https://game.example.evil.example", "null"]) {
      const response = await preflight(t, START_GUEST, origin);
      expect(response.status, origin).toBe(403);
      expect(corsHeaders(response), origin).toEqual({});
      expect(await response.json()).toEqual({ code: "permission_denied", message: `origin ${origin} is not allowed: add it to the server's webOrigins` });
    }
  });

  it("should echo an allowed origin on the call itself, never a wildcard, and vary by origin", async () => {
    await using t = await testServer(kind, PRODUCTION);
    const call = (headers: Record<string, string>) =>
      t.fetch(`${t.baseUrl}${START_GUEST}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" });

    const allowed = await call({ origin: GAME });
    expect(allowed.status).toBe(200);
    // The request id is readable by the page, to quote in a report.
    expect(corsHeaders(allowed)).toEqual({ "access-control-allow-origin": GAME, "access-control-expose-headers": "x-request-id" });
    expect(allowed.headers.get("vary")).toBe("origin");

    const refused = await call({ origin: "https://evil.example" });
    expect(corsHeaders(refused)).toEqual({});
    expect(refused.headers.get("vary")).toBe("origin");

    // Not a browser: nothing added to the hot path's answer.
    const plain = await call({});
    expect(plain.status).toBe(200);
    expect(corsHeaders(plain)).toEqual({});
    expect(plain.headers.get("vary")).toBeNull();

    // Errors carry the headers too, so that a page can read the error's code.
    const error = await t.fetch(`${t.baseUrl}/svc.platform.v1.IdentityService/GetMe`, { method: "POST", headers: { "content-type": "application/json", origin: GAME }, body: "{}" });
    expect(error.status).toBe(401);
    expect(error.headers.get("access-control-allow-origin")).toBe(GAME);
  });

  it("should vary every GET by origin, for the caches that keep content and keys", async () => {
    await using t = await testServer(kind, PRODUCTION);
    const keys = await t.fetch(`${t.baseUrl}/.well-known/jwks.json`);
    expect(keys.headers.get("vary")).toBe("origin");
    expect(keys.headers.get("access-control-allow-origin")).toBeNull();
    const fromGame = await t.fetch(`${t.baseUrl}/healthz`, { headers: { origin: GAME } });
    expect(fromGame.headers.get("access-control-allow-origin")).toBe(GAME);
  });
});

describe("the realtime endpoint's Origin check", () => {
  /** Opens a WebSocket with these headers: the HTTP status of a refused upgrade, or "open". */
  async function upgrade(t: TestServer, headers: Record<string, string>): Promise<number | "open"> {
    const socket = new WebSocket(`${t.baseUrl.replace("http", "ws")}/realtime`, { headers });
    const outcome = await Promise.race([
      once(socket, "open").then(() => "open" as const),
      once(socket, "unexpected-response").then(([, response]) => (response as { statusCode: number }).statusCode),
    ]);
    socket.terminate();
    return outcome;
  }

  it("should upgrade allowed origins, the server's own, and clients with no Origin, and refuse others with 403", async () => {
    await using t = await testServer("listening", PRODUCTION);
    expect(await upgrade(t, { origin: GAME })).toBe("open");
    expect(await upgrade(t, {})).toBe("open");
    expect(await upgrade(t, { origin: new URL(t.baseUrl).origin })).toBe("open");
    expect(await upgrade(t, { origin: "https://evil.example" })).toBe(403);
    expect(await upgrade(t, { origin: DEV_PAGE })).toBe(403);
  });

  it("should upgrade a loopback page outside production", async () => {
    await using t = await testServer("listening", { environment: "development" });
    expect(await upgrade(t, { origin: DEV_PAGE })).toBe("open");
  });
});
