/*
 * Durability of the `playfield-server` command: acknowledged writes survive
 * `kill -9` and a restart on the same data folder (PGlite) or the same
 * PostgreSQL schema, and tokens issued before the kill still work after it
 * (the signing keys live in storage). The server runs as a real child
 * process, so nothing in this process's heap can fake persistence.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, inject, it } from "vitest";
import { dropSchema, freshSchema } from "./postgres-schema.js";

const bin = fileURLToPath(new URL("../../server/bin/playfield-server.js", import.meta.url));
const postgresUrl = inject("postgresUrl");

/** Starts the command; resolves with its URL once it listens, and a way to kill it hard. */
async function start(args: string[]) {
  // The launcher execs tsx in a child: run that child directly so SIGKILL reaches the server itself.
  const child = spawn(process.execPath, [bin, "--port", "0", ...args], { env: { ...process.env, DATABASE_URL: "" }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => { stderr += chunk.toString(); });
  const exited = once(child, "exit");
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on("line", (line) => {
      const found = /listening on (http:\/\/\S+)/.exec(line)?.[1];
      if (found) resolve(found);
    });
    void exited.then(([code]) => reject(new Error(`exited with ${String(code)}: ${stderr}`)));
  });
  return {
    url,
    /** kill -9 of the launcher and the server under it (one process group). */
    async kill9() {
      process.kill(-child.pid!, "SIGKILL");
      await exited;
    },
  };
}

async function call(url: string, path: string, body: object, token?: string): Promise<Record<string, any>> {
  const response = await fetch(`${url}/svc.platform.v1.${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, any>;
  if (!response.ok) throw new Error(`${path} answered ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Writes through the first server, kills it with SIGKILL, and reads everything back through a second on the same storage. */
async function survivesKill9(args: string[]): Promise<void> {
  const first = await start(args);
  const signedUp = await call(first.url, "IdentityService/SignUp", { username: "durable_ada", password: "correct horse battery", birthdate: "1990-01-01", displayName: "Ada" });
  const bytes = Buffer.from("a level that must survive");
  const upload = await call(first.url, "CatalogService/UploadContent", { data: bytes.toString("base64"), contentType: "application/json" }, signedUp.accessToken);
  await first.kill9();

  const second = await start(args);
  try {
    // The access token signed before the kill verifies after it.
    const me = await call(second.url, "IdentityService/GetMe", {}, signedUp.accessToken);
    expect(me.user).toEqual(signedUp.me.user);
    const signedIn = await call(second.url, "IdentityService/SignIn", { username: "durable_ada", password: "correct horse battery" });
    expect(signedIn.me.user).toEqual(signedUp.me.user);
    const content = await fetch(`${second.url}${upload.url}`);
    expect(content.status).toBe(200);
    expect(Buffer.from(await content.arrayBuffer())).toEqual(bytes);
  } finally {
    await second.kill9();
  }
}

describe("playfield-server after kill -9", () => {
  it("should keep accounts, tokens and uploads in a data folder (PGlite)", async () => {
    const folder = await mkdtemp(join(tmpdir(), "playfield-durability-"));
    try {
      await survivesKill9(["--data-dir", join(folder, "data")]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);

  describe.skipIf(postgresUrl === null)("on PostgreSQL", () => {
    const schema = freshSchema("durability");
    afterAll(() => dropSchema(postgresUrl!, schema));

    it("should keep accounts, tokens and uploads on PostgreSQL", async () => {
      await survivesKill9(["--database-url", postgresUrl!, "--database-schema", schema]);
    }, 120_000);
  });
});
