import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { RealtimeCloseCode } from "@playfield/core";
import { createServer } from "../../src/index.js";
import { listen } from "../../src/node/index.js";
import { readySocket } from "../realtime-sockets.js";
import { gatedStorage } from "./gated-storage.js";

/** POSTs JSON with node:http (no connection pool), answering status and body, or the error that cut it. */
function post(url: string, path: string, body: unknown, token?: string): Promise<{ status: number; body: Record<string, any> } | Error> {
  return new Promise((resolve) => {
    const req = request(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) } }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => { text += chunk.toString(); });
      res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) as Record<string, any> }));
      res.on("error", resolve);
    });
    req.on("error", resolve);
    req.end(JSON.stringify(body));
  });
}

const GUEST = "/svc.platform.v1.IdentityService/StartGuest";

async function started() {
  const db = gatedStorage();
  const errors: unknown[] = [];
  const server = await listen(createServer({ storage: db.storage, environment: "test", onInternalError: (error) => errors.push(error) }), { port: 0 });
  return { db, errors, server };
}

describe("listen(…).close(): graceful shutdown", () => {
  it("should finish a request under way, refuse new connections, close WebSockets with 1012, and answer 503 on /readyz meanwhile", async () => {
    const { db, errors, server } = await started();
    const guest = await post(server.url, GUEST, {});
    if (guest instanceof Error) throw guest;
    const socket = await readySocket(server.url, guest.body.accessToken as string);

    db.hold();
    const slow = post(server.url, GUEST, {});
    // The request has reached the storage: it is under way when the shutdown begins
    // (the socket's first recheck, a read, may be held beside it).
    await expect.poll(() => db.writesWaiting).toBe(1);
    const closing = server.close({ timeoutMs: 5_000 });
    expect((await server.fetch("http://playfield.test/readyz")).status).toBe(503);
    expect(await socket.closed).toMatchObject({ code: RealtimeCloseCode.ServiceRestart });
    expect(await post(server.url, GUEST, {})).toMatchObject({ code: "ECONNREFUSED" });

    db.release();
    const answer = await slow;
    expect(answer).toMatchObject({ status: 200, body: { accessToken: expect.any(String) } });
    await closing;
    expect(errors).toEqual([]);
  });

  it("should cut what is still running at the timeout, and say so", async () => {
    const { db, errors, server } = await started();
    db.hold();
    const stuck = post(server.url, GUEST, {});
    await expect.poll(() => db.writesWaiting).toBe(1);
    const since = performance.now();
    await server.close({ timeoutMs: 300 });
    expect(performance.now() - since).toBeLessThan(2_000);
    expect(await stuck).toBeInstanceOf(Error);
    expect(errors.map(String)).toEqual(["Error: shutdown: requests and storage transactions still running after 300 ms were cut"]);
    db.release();
  });

  it("should set up every table before it listens", async () => {
    const inits: string[][] = [];
    const db = gatedStorage();
    const storage = { ...db.storage, init: async (tables: readonly { name: string }[]) => { inits.push(tables.map((t) => t.name)); } };
    const server = await listen(createServer({ storage, environment: "test" }), { port: 0 });
    await server.close();
    expect(inits).toHaveLength(1);
    expect(inits[0]).toEqual(expect.arrayContaining(["users", "signing_keys", "blob_bytes"]));
  });
});

