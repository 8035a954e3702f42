/*
 * Graceful shutdown of the `playfield-server` command, run as a child
 * process on a data folder (PGlite): on SIGTERM a request under way
 * finishes, new connections are refused, WebSockets close with 1012, the
 * process exits 0 within its timeout, and the folder opens again with
 * everything in it. A new PGlite folder takes seconds to create (over a
 * minute on a loaded machine), hence the long timeout.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RealtimeCloseCode } from "@playfield/core";
import { readySocket } from "../../server/test/realtime-sockets.js";
import { call, startServerProcess } from "./server-process.js";

/**
 * A POST whose body is sent in two halves: the request is under way once
 * `begun` resolves (connected, its first half written out, and a moment
 * for the server to read it) until `finish`.
 */
function slowPost(url: string, path: string, body: object, token: string) {
  const text = JSON.stringify(body);
  const half = Math.floor(text.length / 2);
  let finish = () => {};
  let sent = () => {};
  const written = new Promise<void>((resolve) => { sent = resolve; });
  const answer = new Promise<{ status: number; body: Record<string, any> }>((resolve, reject) => {
    const req = request(`${url}/svc.platform.v1.${path}`, {
      method: "POST", agent: false,
      headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "content-length": String(Buffer.byteLength(text)) },
    }, (res) => {
      let received = "";
      res.on("data", (chunk: Buffer) => { received += chunk.toString(); });
      res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(received) as Record<string, any> }));
    });
    req.on("error", reject);
    req.write(text.slice(0, half), () => sent());
    finish = () => req.end(text.slice(half));
  });
  // The write's callback runs once the first half left for the socket, so after the connection was made.
  const begun = written.then(() => new Promise((resolve) => setTimeout(resolve, 200)));
  return { answer, begun, finish: () => finish() };
}

/** Whether a new connection to the server is refused (the port has stopped accepting). */
async function refused(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/healthz`);
    return false;
  } catch {
    return true;
  }
}

describe("playfield-server on SIGTERM", () => {
  it("should finish the request under way, close WebSockets with 1012, exit 0, and leave a data folder that opens again", async () => {
    const folder = await mkdtemp(join(tmpdir(), "playfield-shutdown-"));
    const dataDir = join(folder, "data");
    try {
      const first = await startServerProcess(["--data-dir", dataDir, "--shutdown-timeout", "20"]);
      const signedUp = await call(first.url, "IdentityService/SignUp", { username: "drained_ada", password: "correct horse battery", birthdate: "1990-01-01", displayName: "Ada" });
      const token = signedUp.accessToken as string;
      const socket = await readySocket(first.url, token);
      expect((await fetch(`${first.url}/readyz`)).status).toBe(200);

      const bytes = Buffer.from("a level uploaded while the server stops");
      const upload = slowPost(first.url, "CatalogService/UploadContent", { data: bytes.toString("base64"), contentType: "application/json" }, token);
      await upload.begun;
      const signalled = performance.now();
      const stopped = first.stop();
      expect(await socket.closed).toMatchObject({ code: RealtimeCloseCode.ServiceRestart });
      await expect.poll(() => refused(first.url), { timeout: 10_000 }).toBe(true);
      upload.finish();
      const uploaded = await upload.answer;
      expect(uploaded).toMatchObject({ status: 200, body: { url: expect.stringMatching(/^\//) } });
      const exit = await stopped;
      expect(exit.code).toBe(0);
      expect(performance.now() - signalled).toBeLessThan(20_000);
      expect(exit.stdout).toMatch(/SIGTERM: shutting down/);
      expect(exit.stderr).toBe("");

      const second = await startServerProcess(["--data-dir", dataDir]);
      try {
        expect((await call(second.url, "IdentityService/GetMe", {}, token)).user).toEqual(signedUp.me.user);
        const content = await fetch(`${second.url}${uploaded.body.url}`);
        expect(Buffer.from(await content.arrayBuffer())).toEqual(bytes);
      } finally {
        expect((await second.stop()).code).toBe(0);
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 240_000);
});
