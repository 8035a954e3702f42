import { describe, expect, it } from "vitest";
import { allMethods, mintClaims, TokenType, type MethodDesc } from "@playfield/core";
import { createMemoryServer } from "@playfield/server-memory";
import { implementations } from "../src/services/index.js";
import { rpc } from "./rpc.js";

/*
 * Every method of all 10 services × every kind of caller. The expected answer
 * comes from the method's descriptor alone (auth level and scopes): the test
 * and the server read the same table, and the server must agree with it.
 */

// The account caller goes last: a passing SignOutEverywhere ends the device its scoped and game tokens share.
// A guest's scoped tokens go before the guest: a passing SignOutEverywhere ends the device they share.
const CALLERS = ["none", "malformed", "expired", "revoked", "guest-studio", "guest-avatar", "guest", "studio", "avatar", "game", "account"] as const;
type CallerKind = (typeof CALLERS)[number];
type Verdict = "pass" | "unauthenticated" | "permission_denied";

function expected(method: MethodDesc, caller: CallerKind): Verdict {
  if (method.auth === "none") return "pass";
  switch (caller) {
    case "none":
      return method.auth === "optional" ? "pass" : "unauthenticated";
    case "malformed": case "expired": case "revoked":
      return "unauthenticated";
    case "studio": case "avatar":
      return method.scopes.includes(caller) ? "pass" : "permission_denied";
    case "guest-studio": case "guest-avatar":
      // The scope opens the method; the auth level still keeps guests out of account methods.
      return method.scopes.includes(caller === "guest-studio" ? "studio" : "avatar") && method.auth !== "account" ? "pass" : "permission_denied";
    case "game":
      return method.auth === "game" ? "pass" : "permission_denied";
    case "guest":
      return method.auth === "optional" || method.auth === "guest" ? "pass" : "permission_denied";
    case "account":
      return method.auth === "game" ? "permission_denied" : "pass";
  }
}

async function tokensFor() {
  const server = createMemoryServer();
  const account = await server.seed.user();
  const guest = await server.seed.guest();
  const revoked = await server.seed.user();
  await rpc(server.fetch, "/svc.platform.v1.IdentityService/SignOutEverywhere", {}, revoked.accessToken);
  const now = server.clock.now();
  const tokens: Record<CallerKind, string | undefined> = {
    none: undefined,
    malformed: "not.a.jwt",
    expired: await server.deps.signer.sign(mintClaims({ sub: account.userId, sid: account.deviceId, typ: TokenType.Access }, now - 3_600_000, 900)),
    revoked: revoked.accessToken,
    guest: guest.accessToken,
    account: account.accessToken,
    studio: await server.seed.scopedToken(account, "studio"),
    avatar: await server.seed.scopedToken(account, "avatar"),
    "guest-studio": await server.seed.scopedToken(guest, "studio"),
    "guest-avatar": await server.seed.scopedToken(guest, "avatar"),
    game: await server.seed.gameToken(account),
  };
  return { server, tokens };
}

function built(method: MethodDesc): boolean {
  const service = Object.entries(implementations).find(([name]) => method.service.toLowerCase().endsWith(`.${name}service`));
  return !!service && method.localName in (service[1] as object);
}

describe("auth matrix", () => {
  const methods = allMethods();

  it("should cover every method of the 10 services", () => {
    expect(new Set(methods.map((m) => m.service)).size).toBe(10);
  });

  for (const method of methods) {
    it(`should decide ${method.name} (${method.service.split(".").pop()}, ${method.auth}) for every caller by its descriptor`, async () => {
      // A fresh server per method: some methods (SignOutEverywhere, DeleteAccount…) end the caller's session.
      const { server, tokens } = await tokensFor();
      for (const caller of CALLERS) {
        // `{}` passes the auth check but not validation for most methods: nothing is changed.
        const { status, body } = await rpc(server.fetch, method.path, {}, tokens[caller]);
        const verdict = expected(method, caller);
        const where = `${method.name} as ${caller}: ${status} ${JSON.stringify(body)}`;
        if (verdict === "pass") {
          expect(body.code, where).not.toBe("unauthenticated");
          expect(body.code, where).not.toBe("permission_denied");
          expect(status, where).not.toBe(500);
          // Unbuilt methods answer unimplemented honestly, but only once past auth.
          if (!built(method)) expect(body.code, where).toBe("unimplemented");
        } else {
          expect(body.code, where).toBe(verdict);
        }
      }
    });
  }
});
