/*
 * URLs handed to players come from configuration, never from a request:
 * a forged Host, X-Forwarded-Host or X-Forwarded-Proto on a peer session's
 * first Join, or on StartTopUp, changes neither the signalling URL the next
 * player is given nor the checkout URL. A server listening beyond loopback
 * without a public address refuses to start.
 */
import { request } from "node:http";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMemoryServer, startServer } from "@playfield/server-memory";
import { PublicUrlRequiredError } from "../src/node/index.js";
import { addExperience } from "./session-world.js";

/** POSTs a call over a raw socket, so that any Host header goes out as written. */
function rawCall(url: string, path: string, body: object, headers: Record<string, string>): Promise<Record<string, any>> {
  const target = new URL(`/svc.platform.v1.${path}`, url);
  return new Promise((resolve, reject) => {
    const req = request(target, { method: "POST", headers: { "content-type": "application/json", ...headers } }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => { text += chunk.toString(); });
      res.on("end", () => (res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`${path} ${res.statusCode}: ${text}`))));
    });
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const forgedHeaders = fc.record({
  host: fc.oneof(fc.constant("attacker.example:443"), fc.domain(), fc.string({ minLength: 1, maxLength: 40 }).filter((s) => /^[\x21-\x7e]+$/.test(s))),
  "x-forwarded-proto": fc.constantFrom("https", "http", "wss"),
  "x-forwarded-host": fc.domain(),
}, { requiredKeys: ["host"] });

describe("URLs handed out", () => {
  const cases = [
    ["the listening address on loopback", undefined, []],
    ["the configured public URL", "https://play.example/game", []],
    // Behind a trusted proxy its X-Forwarded-For names the caller; its other forwarded headers still choose no URL.
    ["the configured public URL behind a trusted proxy", "https://play.example", ["127.0.0.1", "::1"]],
  ] as const;
  for (const [name, publicUrl, trustedProxies] of cases) {
    it(`should build signalling and checkout URLs from ${name} whatever the headers say (property)`, async () => {
      const server = await startServer({ port: 0, environment: "test", trustedProxies, ...(publicUrl ? { publicUrl } : {}) });
      const base = publicUrl ?? server.url;
      const realtime = `${base.replace(/^http/, "ws")}/realtime`;
      await fc.assert(fc.asyncProperty(forgedHeaders, async (headers) => {
        const { experience } = await addExperience(server, { hostingTier: "peer" });
        const [attacker, victim] = [await server.seed.user(), await server.seed.user()];
        const join = { experienceId: experience.id, platform: "web", engineVersion: "1.0" };
        const first = await rawCall(server.url, "SessionService/Join", join, { ...headers, authorization: `Bearer ${attacker.accessToken}` });
        const second = await rawCall(server.url, "SessionService/Join", join, { authorization: `Bearer ${victim.accessToken}` });
        expect(second.sessionId).toBe(first.sessionId);
        expect([first.connectUrl, second.connectUrl]).toEqual([realtime, realtime]);
        const topUp = await rawCall(server.url, "EconomyService/StartTopUp", { packId: "pack_400", method: "sandbox" }, { ...headers, authorization: `Bearer ${victim.accessToken}` });
        expect(topUp.checkoutUrl).toBe(`${base}/checkout/${topUp.orderId}`);
      }), { numRuns: 20 }).finally(() => server.close());
    });
  }

  it("should refuse a public URL that is not plain http(s), or that carries a query or credentials", () => {
    for (const bad of ["play.example", "ftp://play.example", "https://play.example/?x=1", "https://play.example/#a", "https://u:p@play.example"]) {
      expect(() => createMemoryServer({ publicUrl: bad })).toThrow(/^publicUrl must be an http:\/\/ or https:\/\/ URL with no query or credentials/);
    }
    expect(createMemoryServer({ publicUrl: "https://play.example/game/" }).deps.config.publicUrl).toBe("https://play.example/game");
  });

  it("should refuse to listen beyond loopback without a public URL, and listen with one", async () => {
    await expect(startServer({ port: 0, host: "0.0.0.0" })).rejects.toThrow(PublicUrlRequiredError);
    await expect(startServer({ port: 0, host: "0.0.0.0" })).rejects.toThrow(/set the address players reach the server at \(--public-url/);
    const server = await startServer({ port: 0, host: "0.0.0.0", publicUrl: "https://play.example" });
    expect(server.deps.config.publicUrl).toBe("https://play.example");
    await server.close();
  });
});
