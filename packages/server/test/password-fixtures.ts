import { createClient, type ClientOptions, type PlayfieldClient } from "@playfield/client";
import type { Clock } from "@playfield/core";
import { createScryptHasher, FAST_TEST_COST, type PasswordHasher, type ScryptCost } from "@playfield/server";
import type { TestServer, TransportKind } from "./fixtures.js";

/*
 * Callers from chosen client addresses, and a hasher that records every
 * password it checks, for the suites of the password throttles.
 */

/** The loopback spellings a listening test server trusts as its proxy, so `X-Forwarded-For` names the caller. */
export const LOOPBACK_PROXIES = ["127.0.0.1", "::1"];

/**
 * A client of `t` whose calls come from `address`: in process, the address
 * is the call's own; over a socket, the loopback connection is a trusted
 * proxy (`trustedProxies: LOOPBACK_PROXIES`) naming it in `X-Forwarded-For`.
 */
export function clientFrom(t: TestServer, kind: TransportKind, address: string, options: Partial<ClientOptions> = {}): PlayfieldClient {
  const fetch: typeof globalThis.fetch = kind === "in-process"
    ? (input, init) => t.server.handle(new Request(input, init), { clientAddress: address })
    : (input, init) => {
      const request = new Request(input, init);
      request.headers.set("x-forwarded-for", address);
      return globalThis.fetch(request);
    };
  return createClient({ baseUrl: t.baseUrl, fetch, ...options });
}

/** One password check: the password tried and the time on the server's clock. */
export interface Check {
  password: string;
  at: number;
}

/** A scrypt hasher that records each password it checks (at `clock`'s time), and holds each check until `held` resolves (so attempts overlap). */
export function recordingHasher(clock: Clock | null, options: { held?: Promise<unknown>; cost?: ScryptCost } = {}): PasswordHasher & { checks: Check[] } {
  const scrypt = createScryptHasher({ cost: options.cost ?? FAST_TEST_COST });
  const hasher = {
    checks: [] as Check[],
    hash: (password: string) => scrypt.hash(password),
    async verify(password: string, encoded: string) {
      hasher.checks.push({ password, at: clock?.now() ?? 0 });
      await options.held;
      return scrypt.verify(password, encoded);
    },
    needsRehash: (encoded: string) => scrypt.needsRehash!(encoded),
  };
  return hasher;
}
