import { createClient, type PlayfieldClient } from "@playfield/client";
import { PlayfieldError, type Code } from "@playfield/core";
import { expect } from "vitest";
import { createMemoryServer, type MemoryServer } from "../src/create-memory-server.js";
import { startServer } from "../src/start-server.js";

/*
 * The kit's own suites reach a memory server both ways a test suite does: in
 * process through its fetch, and over a socket through startServer.
 * (@playfield/server's suites have the fuller fixture this one follows.)
 */
export const TRANSPORTS = ["in-process", "listening"] as const;

export interface TestServer extends AsyncDisposable {
  server: MemoryServer;
  client(): PlayfieldClient;
}

export async function testServer(kind: (typeof TRANSPORTS)[number]): Promise<TestServer> {
  if (kind === "in-process") {
    const server = createMemoryServer();
    return { server, client: () => createClient({ baseUrl: "http://playfield.test", fetch: server.fetch }), [Symbol.asyncDispose]: async () => {} };
  }
  const server = await startServer({ port: 0 });
  return { server, client: () => createClient({ baseUrl: server.url }), [Symbol.asyncDispose]: () => server.close() };
}

/** Awaits a promise that must reject with a PlayfieldError of `code`. */
export async function expectError(promise: Promise<unknown>, code: Code, message?: RegExp): Promise<void> {
  const error = await promise.then(() => { throw new Error(`expected ${code}, but the call succeeded`); }, (reason: unknown) => reason);
  expect(error).toBeInstanceOf(PlayfieldError);
  expect((error as PlayfieldError).code, (error as PlayfieldError).message).toBe(code);
  if (message) expect((error as PlayfieldError).rawMessage).toMatch(message);
}
