import { createPublicKey, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { testServer, TRANSPORTS } from "./fixtures.js";

describe.each(TRANSPORTS)("server endpoints (%s)", (kind) => {
  it("should answer /healthz", async () => {
    await using t = await testServer(kind);
    const response = await t.fetch(`${t.baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("should publish keys that verify an access token offline", async () => {
    await using t = await testServer(kind);
    const user = await t.server.seed.user();
    const response = await t.fetch(`${t.baseUrl}/.well-known/jwks.json`);
    expect(response.headers.get("cache-control")).toMatch(/max-age/);
    const { keys } = (await response.json()) as { keys: { kid: string; x: string; kty: string; crv: string }[] };
    const [header, payload, signature] = user.accessToken.split(".") as [string, string, string];
    const { kid, alg } = JSON.parse(Buffer.from(header, "base64url").toString()) as { kid: string; alg: string };
    expect(alg).toBe("EdDSA");
    const jwk = keys.find((k) => k.kid === kid)!;
    expect(jwk).toMatchObject({ kty: "OKP", crv: "Ed25519" });
    const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: jwk.x }, format: "jwk" });
    expect(verify(null, Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, "base64url"))).toBe(true);
    expect(JSON.parse(Buffer.from(payload, "base64url").toString())).toMatchObject({ sub: user.userId, sid: user.deviceId, typ: "access" });
  });
});
