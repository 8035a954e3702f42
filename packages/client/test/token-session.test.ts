import { Code } from "@playfield/core";
import fc from "fast-check";
import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import { readApiTable } from "../src/api-table.js";
import { createMemoryTokenStore, type PlayfieldClient, type Tokens, type TokenStore } from "../src/index.js";
import { useFakeAuth } from "./fake-auth-server.js";
import { authJson, BASE_URL, bearerOf, methodUrl, testClient, useMswServer, waitError } from "./helpers.js";

const server = useMswServer();
const MINUTE = 60_000;

/** A client method by service and local name, with the types of the whole API loosened. */
const methodOf = (client: PlayfieldClient, service: string, method: string) =>
  (client as unknown as Record<string, Record<string, (request?: object, options?: object) => Promise<Record<string, unknown>>>>)[service]![method]!;

async function signedIn(options: Parameters<typeof testClient>[0] = {}) {
  const fake = useFakeAuth(server);
  const { client, clock } = testClient(options);
  await client.identity.signIn({ username: "ada", password: "pw" });
  return { client, clock, fake };
}

describe("token capture", () => {
  it.each(["signUp", "signIn", "startGuest", "upgradeGuest", "redeemHandoff", "refresh"])("should keep the tokens %s answers", async (name) => {
    const wire = name[0]!.toUpperCase() + name.slice(1);
    server.use(http.post(methodUrl("IdentityService", wire), () => HttpResponse.json(authJson(7, 600))));
    const { client, clock } = testClient();
    await methodOf(client, "identity", name)({});
    expect(await client.auth.getTokens()).toEqual({ accessToken: "access-7", refreshToken: "refresh-7", expiresAt: clock.now() + 600_000 });
  });

  it("should keep the tokens in changePassword's auth field", async () => {
    const { client } = await signedIn();
    server.use(http.post(methodUrl("IdentityService", "ChangePassword"), () => HttpResponse.json({ auth: authJson(9) })));
    await client.identity.changePassword({ currentPassword: "pw", newPassword: "another password" });
    expect((await client.auth.getTokens())?.accessToken).toBe("access-9");
  });

  it.each(["signOut", "signOutEverywhere", "deleteAccount"])("should drop the tokens when %s succeeds", async (name) => {
    const { client } = await signedIn();
    server.use(http.post(methodUrl("IdentityService", name[0]!.toUpperCase() + name.slice(1)), () => HttpResponse.json({})));
    await methodOf(client, "identity", name)({ password: "pw" });
    expect(await client.auth.isSignedIn()).toBe(false);
  });

  it("should keep the tokens when revokeDevice signs another device out", async () => {
    const { client } = await signedIn();
    server.use(http.post(methodUrl("IdentityService", "RevokeDevice"), () => HttpResponse.json({})));
    await client.identity.revokeDevice({ deviceId: "d2" });
    expect((await client.auth.getTokens())?.accessToken).toBe("access-1");
  });

  it("should keep the tokens when deleteAccount fails", async () => {
    const { client } = await signedIn();
    server.use(http.post(methodUrl("IdentityService", "DeleteAccount"), () => HttpResponse.json({ code: "invalid_argument", message: "password: wrong" }, { status: 400 })));
    await waitError(client.identity.deleteAccount({ password: "nope" }));
    expect(await client.auth.isSignedIn()).toBe(true);
  });

  it("should send the held refresh token to signOut when none is given", async () => {
    const { client } = await signedIn();
    const bodies: unknown[] = [];
    server.use(http.post(methodUrl("IdentityService", "SignOut"), async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json({});
    }));
    await client.identity.signOut();
    expect(bodies).toEqual([{ refreshToken: "refresh-1" }]);
  });

  it("should stay signed in after signing out another refresh token", async () => {
    const { client } = await signedIn();
    server.use(http.post(methodUrl("IdentityService", "SignOut"), () => HttpResponse.json({})));
    await client.identity.signOut({ refreshToken: "someone-elses" });
    expect(await client.auth.isSignedIn()).toBe(true);
  });
});

describe("bearer tokens", () => {
  const table = readApiTable();
  const methods = Object.entries(table.services).flatMap(([service, byName]) => Object.values(byName).map((m) => ({ ...m, key: service })));

  it("should send the access token to every method but `none` and `game` ones, and never to `none` ones", async () => {
    const seen = new Map<string, string | null>();
    server.use(http.post(`${BASE_URL}/:service/:method`, ({ request }) => {
      seen.set(new URL(request.url).pathname, bearerOf(request));
      return HttpResponse.json({});
    }));
    const { client } = testClient();
    for (const method of methods.filter((m) => m.auth !== "game")) {
      await client.auth.setTokens({ accessToken: "access-1", refreshToken: "refresh-1" });
      await methodOf(client, method.key, method.localName)({});
      expect([method.path, seen.get(method.path)]).toEqual([method.path, method.auth === "none" ? null : "Bearer access-1"]);
    }
  });

  it("should send the game token of the last session.join to `game` methods, and a call's own token instead when given", async () => {
    const game = methods.find((m) => m.auth === "game")!;
    const seen: (string | null)[] = [];
    server.use(
      http.post(methodUrl("SessionService", "Join"), () => HttpResponse.json({ sessionId: "s1", gameToken: "game-1" })),
      http.post(`${BASE_URL}${game.path}`, ({ request }) => {
        seen.push(bearerOf(request));
        return HttpResponse.json({});
      }),
    );
    const { client } = testClient();
    await client.auth.setTokens({ accessToken: "access-1", refreshToken: "refresh-1" });
    await methodOf(client, game.key, game.localName)({});
    await client.session.join({ experienceId: "e1" });
    await methodOf(client, game.key, game.localName)({});
    await methodOf(client, game.key, game.localName)({}, { token: "game-2" });
    expect(seen).toEqual([null, "Bearer game-1", "Bearer game-2"]);
    expect(client.auth.getGameToken()).toBe("game-1");
  });

  it("should send a call's own token as is, with no refresh", async () => {
    const { client, clock, fake } = await signedIn();
    clock.advance(60 * MINUTE);
    await waitError(client.identity.getMe({}, { token: "scoped-1" }));
    expect(fake.getMeAuth).toEqual(["Bearer scoped-1"]);
    expect(fake.refreshes).toEqual([]);
  });
});

describe("refresh", () => {
  it("should refresh once before a call when the access token has expired", async () => {
    const { client, clock, fake } = await signedIn();
    clock.advance(15 * MINUTE);
    expect((await client.identity.getMe()).user?.id).toBe("u1");
    expect(fake.refreshes).toEqual(["refresh-1"]);
    expect(fake.getMeAuth).toEqual(["Bearer access-2"]);
    expect((await client.auth.getTokens())?.expiresAt).toBe(clock.now() + 15 * MINUTE);
  });

  it("should refresh within the skew before expiry, and not before it", async () => {
    const { client, clock, fake } = await signedIn({ refreshSkewMs: 30_000 });
    clock.advance(15 * MINUTE - 31_000);
    await client.identity.getMe();
    expect(fake.refreshes).toEqual([]);
    clock.advance(2_000);
    await client.identity.getMe();
    expect(fake.refreshes).toEqual(["refresh-1"]);
  });

  it("should refresh and retry once when a call answers unauthenticated", async () => {
    const { client, fake } = await signedIn();
    fake.expireAccess();
    expect((await client.identity.getMe()).user?.id).toBe("u1");
    expect(fake.refreshes).toEqual(["refresh-1"]);
    expect(fake.getMeAuth).toEqual(["Bearer access-1", "Bearer access-2"]);
  });

  it("should surface unauthenticated when the retry is refused too", async () => {
    const { client, fake } = await signedIn();
    server.use(http.post(methodUrl("IdentityService", "GetMe"), ({ request }) => {
      fake.getMeAuth.push(bearerOf(request));
      return HttpResponse.json({ code: "unauthenticated", message: "no" }, { status: 401 });
    }));
    expect((await waitError(client.identity.getMe())).code).toBe(Code.Unauthenticated);
    expect(fake.refreshes).toEqual(["refresh-1"]);
    expect(fake.getMeAuth).toEqual(["Bearer access-1", "Bearer access-2"]);
  });

  it("should not refresh when no refresh token is held", async () => {
    const fake = useFakeAuth(server);
    const { client } = testClient();
    await client.auth.setTokens({ accessToken: "scoped-1" });
    expect((await waitError(client.identity.getMe())).code).toBe(Code.Unauthenticated);
    expect(fake.refreshes).toEqual([]);
  });

  it("should drop the tokens and surface unauthenticated when the refresh is refused", async () => {
    const { client, clock } = await signedIn();
    server.use(http.post(methodUrl("IdentityService", "Refresh"), () => HttpResponse.json({ code: "unauthenticated", message: "refresh token is not valid" }, { status: 401 })));
    const listener = vi.fn();
    client.auth.subscribe(listener);
    clock.advance(15 * MINUTE);
    const error = await waitError(client.identity.getMe());
    expect(error.code).toBe(Code.Unauthenticated);
    expect(await client.auth.isSignedIn()).toBe(false);
    expect(listener.mock.calls).toEqual([[undefined]]);
  });

  it("should keep the tokens and surface the failure when the refresh cannot reach the server", async () => {
    const { client, clock } = await signedIn();
    server.use(http.post(methodUrl("IdentityService", "Refresh"), () => HttpResponse.error()));
    clock.advance(15 * MINUTE);
    expect((await waitError(client.identity.getMe())).code).toBe(Code.Unavailable);
    expect((await client.auth.getTokens())?.refreshToken).toBe("refresh-1");
  });

  it("should let a caller abort while waiting on a refresh", async () => {
    const { client, clock } = await signedIn();
    server.use(http.post(methodUrl("IdentityService", "Refresh"), () => new Promise<never>(() => undefined)));
    clock.advance(15 * MINUTE);
    const controller = new AbortController();
    const call = client.identity.getMe({}, { signal: controller.signal });
    controller.abort();
    expect((await waitError(call)).code).toBe(Code.Canceled);
  });

  it("should share one refresh among concurrent calls made after expiry, whatever the order of answers", async () => {
    await fc.assert(fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 5 }), async (s, n) => {
      const fake = useFakeAuth(server, { beforeAnswer: (label) => s.schedule(Promise.resolve(label)) });
      const { client, clock } = testClient();
      await client.auth.setTokens({ accessToken: "access-1", refreshToken: "refresh-1", expiresAt: clock.now() - 1 });
      const answers = await s.waitFor(Promise.all(Array.from({ length: n }, () => client.identity.getMe())));
      expect(answers.map((me) => me.user?.id)).toEqual(Array(n).fill("u1"));
      expect(fake.refreshes).toEqual(["refresh-1"]);
    }), { numRuns: 30 });
  });

  it("should share one refresh among concurrent calls refused as unauthenticated, whatever the order of answers", async () => {
    await fc.assert(fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 5 }), fc.boolean(), async (s, n, explicit) => {
      const fake = useFakeAuth(server, { beforeAnswer: (label) => s.schedule(Promise.resolve(label)) });
      const { client } = testClient();
      await client.auth.setTokens({ accessToken: "access-1", refreshToken: "refresh-1", expiresAt: 0 });
      fake.expireAccess();
      const calls: Promise<unknown>[] = Array.from({ length: n }, () => client.identity.getMe());
      // An explicit refresh meanwhile joins the same one.
      if (explicit) calls.push(client.auth.refresh());
      await s.waitFor(Promise.all(calls));
      expect(fake.refreshes).toEqual(["refresh-1"]);
      expect((await client.auth.getTokens())?.accessToken).toBe("access-2");
    }), { numRuns: 30 });
  });
});

describe("client.auth", () => {
  it("should tell listeners of every change until they stop listening", async () => {
    const { client, fake } = await signedIn();
    const seen: (string | undefined)[] = [];
    const stop = client.auth.subscribe((tokens) => seen.push(tokens?.accessToken));
    fake.expireAccess();
    await client.identity.getMe();
    await client.auth.clear();
    stop();
    await client.auth.setTokens({ accessToken: "later" });
    expect(seen).toEqual(["access-2", undefined]);
  });

  it("should read the store once and use its tokens", async () => {
    const fake = useFakeAuth(server);
    const get = vi.fn(async () => ({ accessToken: "access-1", refreshToken: "refresh-1", expiresAt: 0 }));
    const store: TokenStore = { get, set: () => undefined, clear: () => undefined };
    const { client } = testClient({ tokenStore: store });
    await client.identity.getMe();
    await client.identity.getMe();
    expect(fake.getMeAuth).toEqual(["Bearer access-1", "Bearer access-1"]);
    expect(get).toHaveBeenCalledTimes(1);
  });

  it("should write every change through the store, in order", async () => {
    const writes: (Tokens | undefined)[] = [];
    const store: TokenStore = {
      get: () => undefined,
      set: (tokens) => new Promise((resolve) => setTimeout(() => { writes.push(tokens); resolve(); }, tokens.accessToken === "first" ? 20 : 0)),
      clear: () => { writes.push(undefined); },
    };
    const { client } = testClient({ tokenStore: store });
    void client.auth.setTokens({ accessToken: "first" });
    void client.auth.setTokens({ accessToken: "second" });
    await client.auth.clear();
    expect(writes.map((t) => t?.accessToken)).toEqual(["first", "second", undefined]);
  });

  it("should read a failing store as signed out, and keep tokens in memory when it cannot write", async () => {
    const store: TokenStore = {
      get: () => { throw new Error("storage disabled"); },
      set: () => Promise.reject(new Error("quota exceeded")),
      clear: () => undefined,
    };
    const { client } = testClient({ tokenStore: store });
    expect(await client.auth.isSignedIn()).toBe(false);
    await client.auth.setTokens({ accessToken: "a", refreshToken: "r", expiresAt: 5 });
    expect(await client.auth.getTokens()).toEqual({ accessToken: "a", refreshToken: "r", expiresAt: 5 });
  });

  it("should prefer tokens set while the store was being read", async () => {
    let release: (tokens: Tokens) => void = () => undefined;
    const store: TokenStore = { get: () => new Promise((resolve) => { release = resolve; }), set: () => undefined, clear: () => undefined };
    const { client } = testClient({ tokenStore: store });
    const read = client.auth.getTokens();
    await client.auth.setTokens({ accessToken: "new" });
    release({ accessToken: "old", refreshToken: "", expiresAt: 0 });
    expect((await read)?.accessToken).toBe("new");
  });
});

describe("createMemoryTokenStore", () => {
  it("should give back what it was given, and nothing once cleared", () => {
    fc.assert(fc.property(fc.record({ accessToken: fc.string(), refreshToken: fc.string(), expiresAt: fc.nat() }), (tokens) => {
      const store = createMemoryTokenStore();
      expect(store.get()).toBeUndefined();
      store.set(tokens);
      expect(store.get()).toEqual(tokens);
      store.clear();
      expect(store.get()).toBeUndefined();
    }));
  });
});
