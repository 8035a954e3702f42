import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { allMethods, isCode } from "@playfield/core";
import { testServer } from "./fixtures.js";
import { propertyRuns } from "./property-runs.js";
import { rpc } from "./rpc.js";

/*
 * No request body of any shape makes any method answer 500 or hang: bad input
 * is the caller's mistake and gets a 4xx error JSON with a known code.
 */

const methods = allMethods();
const BODY_RUNS = propertyRuns("PLAYFIELD_FUZZ_BODY_RUNS", { memory: 400, database: 100 });
const PATH_RUNS = propertyRuns("PLAYFIELD_FUZZ_PATH_RUNS", { memory: 300, database: 100 });

describe("any body to any method", () => {
  it("should answer a known error code or success, never 500, within the test timeout", async () => {
    await using t = await testServer("in-process", { onInternalError: (error) => { throw error; } });
    const { server } = t;
    const account = await server.seed.user();
    const game = await server.seed.gameToken(account);
    const tokens = [undefined, account.accessToken, game, "garbage"];
    const body = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string(),
      fc.dictionary(fc.constantFrom("username", "user_name", "password", "birthdate", "refreshToken", "scope", "code", "codeVerifier", "targetOrigin", "codeChallenge", "deviceId", "experienceId", "key", "value", "store", "limit", "price", "whoCanMessage", "__proto__", "constructor"), fc.jsonValue()).map((v) => JSON.stringify(v)),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...methods), body, fc.constantFrom(...tokens), async (method, text, token) => {
        const { status, body: answer } = await rpc(server.fetch, method.path, text, token);
        expect(status).not.toBe(500);
        if (status !== 200) expect(isCode(answer.code), JSON.stringify(answer)).toBe(true);
      }),
      BODY_RUNS,
    );
  });

  it("should refuse a body that is not JSON, not an object, or sent as another content type", async () => {
    await using t = await testServer("in-process");
    const { server } = t;
    const path = "/svc.platform.v1.IdentityService/SignIn";
    for (const text of ["{", "[]", "null", "42", "\"x\""]) {
      const { status, body } = await rpc(server.fetch, path, text);
      expect([status, body.code]).toEqual([400, "invalid_argument"]);
      expect(String(body.message)).toMatch(/^body: /);
    }
    const form = await server.fetch(new Request(`http://playfield.test${path}`, { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" }));
    expect(form.status).toBe(400);
    expect(((await form.json()) as { message: string }).message).toMatch(/content-type/);
  });

  it("should treat an empty body as {}", async () => {
    await using t = await testServer("in-process");
    const { server } = t;
    const response = await server.fetch(new Request("http://playfield.test/svc.platform.v1.IdentityService/StartGuest", { method: "POST" }));
    expect(response.status).toBe(200);
  });

  it("should answer unimplemented (404) for an unknown service or method, and not_found for other paths", async () => {
    await using t = await testServer("in-process");
    const { server } = t;
    expect((await rpc(server.fetch, "/svc.platform.v1.NoService/Nothing")).body.code).toBe("unimplemented");
    expect((await rpc(server.fetch, "/svc.platform.v1.IdentityService/Nothing")).status).toBe(404);
    const other = await server.fetch(new Request("http://playfield.test/nowhere"));
    expect([other.status, ((await other.json()) as { code: string }).code]).toEqual([404, "not_found"]);
  });

  it("should read snake_case names and int64 as a JSON string or number, and write int64 as strings with defaults left out", async () => {
    await using t = await testServer("in-process");
    const { server } = t;
    const signUp = await rpc(server.fetch, "/svc.platform.v1.IdentityService/SignUp", {
      username: "snake_case_1", password: "long enough pw", birthdate: "1990-01-01", display_name: "Snake", unknown_field: 1,
    });
    expect(signUp.status).toBe(200);
    expect(signUp.body.expiresInSeconds).toBe("900");
    expect((signUp.body.me as { user: { displayName: string } }).user.displayName).toBe("Snake");
    expect(signUp.body.me).not.toHaveProperty("guest");
    const user = await server.seed.user();
    const game = await server.seed.gameToken(user);
    const path = "/svc.platform.v1.DatastoreService/IncrementOrdered";
    expect((await rpc(server.fetch, path, { store: "wins", delta: "5" }, game)).body).toEqual({ value: "5" });
    expect((await rpc(server.fetch, path, { store: "wins", delta: 2 }, game)).body).toEqual({ value: "7" });
    const bad = await rpc(server.fetch, path, { store: "wins", delta: "2.5" }, game);
    expect([bad.status, bad.body.code]).toEqual([400, "invalid_argument"]);
    expect(String(bad.body.message)).toMatch(/^delta: /);
  });

  it("should answer any path, method and body on the non-RPC routes without a 500 or a rejected fetch", async () => {
    await using t = await testServer("in-process", { onInternalError: (error) => { throw error; } });
    const { server } = t;
    const user = await server.seed.user();
    const segment = fc.oneof(fc.string(), fc.constantFrom("%ZZ", "%", "..", "%E0%A4%A", "%00", user.userId, "a".repeat(64)));
    const path = fc.tuple(fc.constantFrom("avatars", "content", "checkout", "admin", "realtime", "healthz", ".well-known"), segment, fc.constantFrom("", "/headshot.svg", "/reports"))
      .map(([first, second, tail]) => `/${first}/${second.replace(/[/?#]/g, "")}${tail}`);
    await fc.assert(
      fc.asyncProperty(path, fc.constantFrom("GET", "POST", "HEAD", "PUT"), fc.string(), async (p, method, body) => {
        let url: URL;
        try {
          url = new URL(p, "http://playfield.test");
        } catch {
          return;
        }
        const init: RequestInit = method === "GET" || method === "HEAD" ? { method } : { method, body, headers: { "content-type": "application/x-www-form-urlencoded" } };
        const response = await server.fetch(url, init);
        expect(response.status).toBeLessThan(500);
      }),
      PATH_RUNS,
    );
  });

  it("should answer 404 for malformed percent-encoding in a headshot or checkout path", async () => {
    await using t = await testServer("in-process", { onInternalError: (error) => { throw error; } });
    const { server } = t;
    expect((await server.fetch("http://playfield.test/avatars/%ZZ/headshot.svg")).status).toBe(404);
    expect((await server.fetch("http://playfield.test/checkout/%E0%A4%A")).status).toBe(404);
  });
});
