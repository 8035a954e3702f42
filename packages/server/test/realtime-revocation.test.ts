import { describe, expect, it, vi } from "vitest";
import { createClient } from "@playfield/client";
import { RealtimeCloseCode } from "@playfield/core";
import { createMemoryServer, createMemoryStorage, createMovableClock, startServer, type StartedServer, type StartServerOptions } from "@playfield/server-memory";
import { listen } from "../src/node/index.js";
import { storedSigningKeys } from "../src/index.js";
import { readySocket, type TestSocket } from "./realtime-sockets.js";

/*
 * Revocation reaches open realtime connections (docs/realtime.md,
 * "Revocation"): each connection's session is rechecked once per ping
 * interval, in batches read from storage, with no signature checked again;
 * a signed-out device, a password change, a deleted account and an expired
 * token close it with 4001 within one interval, on the server that revoked
 * and on another over the same storage.
 */

const INTERVAL_MS = 200;
/** The bound: one interval, and slack for a loaded machine (the storage read, the close frame's way back). */
const BOUND_MS = INTERVAL_MS + 800;

async function listening(options: StartServerOptions = {}): Promise<StartedServer & AsyncDisposable> {
  const server = await startServer({ port: 0, websocket: { pingIntervalMs: INTERVAL_MS }, ...options });
  return Object.assign(server, { [Symbol.asyncDispose]: () => server.close() });
}

/** How the socket closed, and how long after `since`; fails past the bound. */
async function closedWithin(socket: TestSocket, since: number): Promise<{ code: number; reason: string }> {
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still open ${BOUND_MS} ms after the revocation`)), BOUND_MS));
  const closed = await Promise.race([socket.closed, timeout]);
  expect(performance.now() - since).toBeLessThan(BOUND_MS);
  return closed;
}

/** Whether the socket is still open after `ms` (several rechecks). */
async function stillOpenAfter(socket: TestSocket, ms: number): Promise<boolean> {
  return Promise.race([socket.closed.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), ms))]);
}

describe("realtime revocation", () => {
  it("should close a signed-out device's connection within one ping interval, with no signature checked again by the rechecks", async () => {
    await using server = await listening();
    const ada = await server.seed.user();
    const socket = await readySocket(server.url, ada.accessToken);
    const verify = vi.spyOn(server.deps.signer, "verify");
    // Rechecks for a few intervals: storage reads, not signature checks.
    expect(await stillOpenAfter(socket, 3 * INTERVAL_MS)).toBe(true);
    expect(verify).not.toHaveBeenCalled();
    const client = createClient({ baseUrl: server.url });
    await client.auth.setTokens({ accessToken: ada.accessToken, refreshToken: ada.refreshToken });
    await client.identity.signOut({});
    expect(await closedWithin(socket, performance.now())).toMatchObject({ code: RealtimeCloseCode.Unauthenticated, reason: "unauthenticated: this device was signed out" });
  });

  it("should close every connection of the sessions a password change ended, and keep one on the fresh tokens", async () => {
    await using server = await listening();
    const ada = await server.seed.user();
    const client = createClient({ baseUrl: server.url });
    const signedIn = await client.identity.signIn({ username: ada.username, password: ada.password });
    const [other, changing] = [await readySocket(server.url, ada.accessToken), await readySocket(server.url, signedIn.accessToken)];
    // Every device is signed out; the changing one continues under a new session (docs/identity.md).
    const { auth } = await client.identity.changePassword({ currentPassword: ada.password, newPassword: "a new password 123" });
    const fresh = await readySocket(server.url, auth!.accessToken);
    const since = performance.now();
    for (const socket of [other, changing]) {
      expect(await closedWithin(socket, since)).toMatchObject({ code: RealtimeCloseCode.Unauthenticated, reason: "unauthenticated: this device was signed out" });
    }
    expect(await stillOpenAfter(fresh, 2 * INTERVAL_MS)).toBe(true);
  });

  it("should close the connections of a deleted account", async () => {
    await using server = await listening();
    const ada = await server.seed.user();
    const socket = await readySocket(server.url, ada.accessToken);
    const client = createClient({ baseUrl: server.url });
    await client.auth.setTokens({ accessToken: ada.accessToken });
    await client.identity.deleteAccount({ password: ada.password });
    expect((await closedWithin(socket, performance.now())).code).toBe(RealtimeCloseCode.Unauthenticated);
  });

  it("should close a connection whose access token expired, and keep one renewed with auth before", async () => {
    await using server = await listening();
    server.clock.freeze();
    const ada = await server.seed.user();
    const [stale, renewed] = [await readySocket(server.url, ada.accessToken), await readySocket(server.url, ada.accessToken)];
    // Ten minutes on, the client refreshes and renews one connection with the fresh token.
    server.clock.advance(10 * 60_000);
    const { accessToken } = await createClient({ baseUrl: server.url }).identity.refresh({ refreshToken: ada.refreshToken });
    renewed.send({ type: "auth", token: accessToken });
    await renewed.next((m) => m.type === "ready" && renewed.messages.filter((x) => x.type === "ready").length === 2);
    // Past the first token's 15 minutes.
    server.clock.advance(6 * 60_000);
    expect(await closedWithin(stale, performance.now())).toMatchObject({ code: RealtimeCloseCode.Unauthenticated, reason: "unauthenticated: token expired" });
    expect(await stillOpenAfter(renewed, 2 * INTERVAL_MS)).toBe(true);
  });

  it("should close a connection on another server over the same storage once its device signs out through the first", async () => {
    const storage = createMemoryStorage();
    const clock = createMovableClock();
    const keys = await storedSigningKeys(storage, clock);
    const [a, b] = [createMemoryServer({ storage, clock, keys }), createMemoryServer({ storage, clock, keys })];
    const listened = async (server: typeof a) => {
      const on = await listen(server, { port: 0, websocket: { pingIntervalMs: INTERVAL_MS } });
      return Object.assign(on, { [Symbol.asyncDispose]: () => on.close() });
    };
    await using onA = await listened(a);
    await using onB = await listened(b);
    const ada = await a.seed.user();
    const socket = await readySocket(onB.url, ada.accessToken);
    const client = createClient({ baseUrl: onA.url });
    await client.auth.setTokens({ accessToken: ada.accessToken, refreshToken: ada.refreshToken });
    await client.identity.signOut({});
    expect(await closedWithin(socket, performance.now())).toMatchObject({ code: RealtimeCloseCode.Unauthenticated, reason: "unauthenticated: this device was signed out" });
  });
});
