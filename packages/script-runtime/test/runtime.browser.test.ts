import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, launchChromium } from "../../../scripts/browser/launch-chromium.js";
import { drive, planOptions } from "./determinism-plan.js";
import { newRuntime } from "./helpers.js";

describe.runIf(chromiumPath)("the script runtime in a browser", () => {
  let browser: Browser;
  let server: Server;
  let out: string;
  let origin: string;

  beforeAll(async () => {
    // The package's main entry, bundled for browsers as an app would bundle it.
    out = mkdtempSync(join(tmpdir(), "playfield-runtime-browser-"));
    await build({
      entryPoints: [fileURLToPath(new URL("./browser-entry.ts", import.meta.url))],
      bundle: true,
      format: "esm",
      platform: "browser",
      conditions: ["@playfield/source"],
      outfile: join(out, "entry.js"),
      logLevel: "error",
    });
    const wasm = createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm");
    const files: Record<string, { type: string; body: Buffer }> = {
      "/": { type: "text/html", body: Buffer.from('<!doctype html><script type="module" src="/entry.js"></script>') },
      "/entry.js": { type: "text/javascript", body: readFileSync(join(out, "entry.js")) },
      "/emscripten-module.wasm": { type: "application/wasm", body: readFileSync(wasm) },
    };
    server = createServer((request, response) => {
      const file = files[request.url ?? ""];
      response.writeHead(file ? 200 : 404, { "content-type": file?.type ?? "text/plain" });
      response.end(file?.body ?? "not found");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    rmSync(out, { recursive: true, force: true });
  });

  it("should end the determinism plan with the same script.list as Node: chain, fuel, hashes and log", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(origin);
    await page.waitForFunction(() => typeof (globalThis as { runPlan?: unknown }).runPlan === "function");
    const inBrowser = await page.evaluate(() => (globalThis as unknown as { runPlan: () => Promise<unknown> }).runPlan());
    await page.close();
    const inNode = await drive(newRuntime(planOptions()));
    expect(errors).toEqual([]);
    expect(inNode.tick).toBe(1000);
    expect(inBrowser).toEqual(inNode);
  }, 60_000);
});
