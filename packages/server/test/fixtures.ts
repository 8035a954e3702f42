import { createClient, type ClientOptions, type PlayfieldClient } from "@playfield/client";
import { PlayfieldError, type Code } from "@playfield/core";
import { expect } from "vitest";
import { createMemoryServer, type MemoryServer, type ServerOptions } from "@playfield/server-memory";
import { startServer } from "@playfield/server-memory";
import { leaseStorage, storageKind } from "./storage-under-test.js";

/** How a suite reaches the server: in process through its fetch, or over a real socket. */
export type TransportKind = "in-process" | "listening";
/**
 * The transports suites run over: both on memory; over the socket alone on
 * a database, where the in-process run would repeat the same storage work.
 */
export const TRANSPORTS: readonly TransportKind[] = storageKind === "memory" ? ["in-process", "listening"] : ["listening"];

export interface TestServer extends AsyncDisposable {
  server: MemoryServer;
  /** The base URL calls go to. */
  baseUrl: string;
  /** A fetch that reaches the server: its own in process, the global one over the socket. */
  fetch: typeof globalThis.fetch;
  /** A new client of this server, with its own tokens. */
  client(options?: Partial<ClientOptions>): PlayfieldClient;
}

/**
 * A server and a client factory, disposed with `await using`. Its storage is
 * the run's: memory, or PGlite or PostgreSQL (storage-under-test.ts).
 */
export async function testServer(kind: TransportKind, options: ServerOptions = {}): Promise<TestServer> {
  const lease = await leaseStorage();
  const withStorage: ServerOptions = { storage: lease.storage, ...options };
  if (kind === "in-process") {
    // The address the tests call it at, so the URLs it hands out (checkout, signalling) are absolute, as on a port.
    const server = createMemoryServer({ publicUrl: "http://playfield.test", ...withStorage });
    return {
      server,
      baseUrl: "http://playfield.test",
      fetch: server.fetch,
      client: (o = {}) => createClient({ baseUrl: "http://playfield.test", fetch: server.fetch, ...o }),
      // As a shutdown does: what the server keeps to write later (its datastore counts) is written before its storage
      // goes to the next test, not by a timer once the storage is closed.
      [Symbol.asyncDispose]: async () => {
        await server.lifecycle.idle();
        lease.release();
      },
    };
  }
  const server = await startServer({ port: 0, ...withStorage });
  return {
    server,
    baseUrl: server.url,
    fetch: globalThis.fetch,
    client: (o = {}) => createClient({ baseUrl: server.url, ...o }),
    [Symbol.asyncDispose]: async () => {
      await server.close();
      lease.release();
    },
  };
}

/** Awaits a promise that must reject with a PlayfieldError of `code`; answers the error. */
export async function expectError(promise: Promise<unknown>, code: Code, message?: RegExp): Promise<PlayfieldError> {
  const error = await promise.then(
    () => { throw new Error(`expected ${code}, but the call succeeded`); },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PlayfieldError);
  const e = error as PlayfieldError;
  expect(e.code, e.message).toBe(code);
  if (message) expect(e.rawMessage).toMatch(message);
  return e;
}
