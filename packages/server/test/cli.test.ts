import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

describe("playfield-server (the CLI behind npm start)", () => {
  it("should print its URL and answer /healthz and API calls", async () => {
    const child = spawn(process.execPath, ["--conditions=@playfield/source", "--import", "tsx", cli], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
      });
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
      expect(url, line).toBeDefined();
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      const guest = await fetch(`${url}/svc.platform.v1.IdentityService/StartGuest`, {
        method: "POST", headers: { "content-type": "application/json" }, body: "{}",
      });
      expect(guest.status).toBe(200);
      expect(((await guest.json()) as { me: { guest: boolean } }).me.guest).toBe(true);
    } finally {
      child.kill("SIGTERM");
    }
  }, 20_000);
});
