import { Code } from "@playfield/core";
import { createMemoryServer } from "@playfield/server-memory";
import { describe, expect, it } from "vitest";
import { clientAddressOf, trustedProxySet } from "../../src/rpc/client-address.js";

const PROXIES = trustedProxySet(["10.0.0.2", "10.0.0.9", "fd00::1"]);

describe("clientAddressOf", () => {
  it("should answer the socket's address when no proxy is trusted, or the connection is not from one", () => {
    expect(clientAddressOf("203.0.113.7", "198.51.100.1", new Set())).toBe("203.0.113.7");
    expect(clientAddressOf("203.0.113.7", "198.51.100.1", PROXIES)).toBe("203.0.113.7");
    expect(clientAddressOf(null, "198.51.100.1", PROXIES)).toBeNull();
  });

  it("should answer the rightmost X-Forwarded-For entry that is not a trusted proxy, past any chain of them", () => {
    expect(clientAddressOf("10.0.0.2", "203.0.113.7", PROXIES)).toBe("203.0.113.7");
    expect(clientAddressOf("10.0.0.2", "203.0.113.7, 10.0.0.9", PROXIES)).toBe("203.0.113.7");
    // What the client wrote itself (left of the entry its proxy added) is not believed.
    expect(clientAddressOf("10.0.0.2", "1.2.3.4, 203.0.113.7", PROXIES)).toBe("203.0.113.7");
    expect(clientAddressOf("fd00::1", " 2001:db8::5 ", PROXIES)).toBe("2001:db8::5");
  });

  it("should spell IPv4 clients of a dual-stack socket as IPv4, on the socket and in the header", () => {
    expect(clientAddressOf("::ffff:10.0.0.2", "::ffff:203.0.113.7", PROXIES)).toBe("203.0.113.7");
  });

  it("should fall back to the socket without a header, and to the leftmost hop when every hop is trusted", () => {
    expect(clientAddressOf("10.0.0.2", null, PROXIES)).toBe("10.0.0.2");
    expect(clientAddressOf("10.0.0.2", " , ", PROXIES)).toBe("10.0.0.2");
    expect(clientAddressOf("10.0.0.2", "10.0.0.9, 10.0.0.2", PROXIES)).toBe("10.0.0.9");
  });

  it("should not believe an entry that is not an address (a proxy passed the client's header on): the nearest trusted hop answers", () => {
    expect(clientAddressOf("10.0.0.2", "x".repeat(5000), PROXIES)).toBe("10.0.0.2");
    expect(clientAddressOf("10.0.0.2", "203.0.113.7, not-an-address, 10.0.0.9", PROXIES)).toBe("10.0.0.9");
    expect(clientAddressOf("10.0.0.2", `${"1".repeat(70)}`, PROXIES)).toBe("10.0.0.2");
    expect(clientAddressOf("fd00::1", "fe80::1%eth0", PROXIES)).toBe("fe80::1%eth0");
  });
});

describe("sign-in throttle behind a trusted load balancer", () => {
  /** A failed sign-in of a fresh username through the balancer at 10.0.0.2, for the client at `client`. */
  const failFrom = (server: ReturnType<typeof createMemoryServer>, client: string, n: number) => server.handle(new Request("http://playfield.test/svc.platform.v1.IdentityService/SignIn", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": client },
    body: JSON.stringify({ username: `nobody_${n}`, password: "wrong password" }),
  }), { clientAddress: "10.0.0.2" });

  it("should count each forwarded client against its own per-address limit, not the balancer's", async () => {
    const server = createMemoryServer({ trustedProxies: ["10.0.0.2"], signInThrottle: { perAddress: { limit: 3, windowMs: 60_000 } } });
    for (let n = 0; n < 3; n++) expect((await (await failFrom(server, "203.0.113.7", n)).json()).code).toBe(Code.Unauthenticated);
    expect((await (await failFrom(server, "203.0.113.7", 3)).json()).code).toBe(Code.ResourceExhausted);
    expect((await (await failFrom(server, "198.51.100.1", 4)).json()).code).toBe(Code.Unauthenticated);
  });

  it("should take back what a successful sign-in counted against its address while it was checked", async () => {
    const server = createMemoryServer({ trustedProxies: ["10.0.0.2"], signInThrottle: { perAddress: { limit: 2, windowMs: 60_000 } } });
    const signIn = (username: string, password: string) => server.handle(new Request("http://playfield.test/svc.platform.v1.IdentityService/SignIn", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.7" },
      body: JSON.stringify({ username, password }),
    }), { clientAddress: "10.0.0.2" });
    const users = [await server.seed.user(), await server.seed.user(), await server.seed.user()];
    for (const user of users) expect((await signIn(user.username, user.password)).status).toBe(200);
    // Three successes left the address's budget of 2 whole: two failures are checked, the third is throttled.
    for (let n = 0; n < 2; n++) expect((await (await signIn(`nobody_${n}`, "wrong password")).json()).code).toBe(Code.Unauthenticated);
    expect((await (await signIn("nobody_2", "wrong password")).json()).code).toBe(Code.ResourceExhausted);
  });

  it("should count every caller as the balancer when it is not trusted", async () => {
    const server = createMemoryServer({ signInThrottle: { perAddress: { limit: 3, windowMs: 60_000 } } });
    for (let n = 0; n < 3; n++) await failFrom(server, `203.0.113.${n}`, n);
    expect((await (await failFrom(server, "198.51.100.1", 3)).json()).code).toBe(Code.ResourceExhausted);
  });
});
