/*
 * `npm run serve`, as the README shows it, stops cleanly as playfield-server
 * does: SIGTERM to npm (an orchestrator, `kill`) or Ctrl-C (SIGINT to the
 * terminal's whole process group) ends it with exit 0, no npm error, and
 * no process of it left behind holding the port.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const folder = fileURLToPath(new URL("..", import.meta.url));

/** Starts `npm run serve` in a process group of its own; resolves once the panel's address is printed. */
async function serve() {
  const child = spawn("npm", ["run", "serve"], { cwd: folder, env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => { stderr += chunk.toString(); });
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const found = /^Scripts panel: (http:\S+)/.exec(line)?.[1];
      if (found) resolve(found);
    });
    void exited.then(([code]) => reject(new Error(`npm run serve exited with ${code}: ${stderr}`)));
  });
  const groupGone = () => {
    try {
      process.kill(-child.pid!, 0);
      return false;
    } catch {
      return true;
    }
  };
  return { child, url, exited, stderr: () => stderr, groupGone };
}

describe("npm run serve", () => {
  for (const [how, signal, toGroup] of [["SIGTERM to npm", "SIGTERM", false], ["Ctrl-C", "SIGINT", true]] as const) {
    it(`should stop on ${how} with exit 0, and nothing of it left`, async () => {
      const served = await serve();
      try {
        expect((await fetch(served.url)).status).toBe(200);
        process.kill(toGroup ? -served.child.pid! : served.child.pid!, signal);
        const [code, killedBy] = await served.exited;
        expect({ code, killedBy, stderr: served.stderr() }).toEqual({ code: 0, killedBy: null, stderr: "" });
        await expect.poll(served.groupGone, { timeout: 10_000 }).toBe(true);
      } finally {
        if (!served.groupGone()) process.kill(-served.child.pid!, "SIGKILL");
      }
    }, 60_000);
  }
});
