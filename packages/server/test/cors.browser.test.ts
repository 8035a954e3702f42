import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryServer, type ServerOptions } from "@playfield/server-memory";
import { listen, type StartedServer } from "@playfield/server/node";
import { chromiumPath, launchChromium } from "../../../scripts/browser/launch-chromium.js";

/*
 * CORS as Chromium applies it: a page on another origin calls the API with
 * the client's headers and opens the realtime WebSocket, and a page of an
 * origin the server does not allow is refused both.
 */

/** A blank page on an origin of its own (another port). */
async function pageServer(): Promise<{ origin: string; http: HttpServer }> {
  const http = createServer((_, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end("<!doctype html><title>game</title>");
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, http };
}

/** From the page: a StartGuest call as the client makes it, then the realtime socket; what each came to. */
function callFromPage(page: Page, api: string) {
  return page.evaluate(async (api) => {
    const call = await fetch(`${api}/svc.platform.v1.IdentityService/StartGuest`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-svc-client": "CORS test (Chromium)" },
      body: "{}",
    }).then(async (response) => ({ status: response.status, guest: ((await response.json()) as { me: { guest: boolean } }).me.guest }))
      .catch((error: Error) => ({ failed: error.message }));
    const socket = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`${api.replace("http", "ws")}/realtime`);
      ws.onopen = () => { ws.close(); resolve("open"); };
      ws.onerror = () => resolve("error");
    });
    return { call, socket };
  }, api);
}

describe.runIf(chromiumPath)("CORS in Chromium", () => {
  let browser: Browser;
  let page: Page;
  let site: { origin: string; http: HttpServer };
  const servers: StartedServer[] = [];

  const api = async (options: ServerOptions) => {
    const server = await listen(createMemoryServer(options), { port: 0, sessionSweepMs: 0 });
    servers.push(server);
    return server.url;
  };

  beforeAll(async () => {
    site = await pageServer();
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(site.origin);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    for (const server of servers) await server.close();
    await new Promise((resolve) => site?.http.close(resolve));
  });

  it("should let a page of an allowed origin call the API and open the realtime connection", async () => {
    const allowed = await api({ environment: "production", webOrigins: [site.origin] });
    expect(await callFromPage(page, allowed)).toEqual({ call: { status: 200, guest: true }, socket: "open" });
    const development = await api({ environment: "development" });
    expect(await callFromPage(page, development)).toEqual({ call: { status: 200, guest: true }, socket: "open" });
  }, 20_000);

  it("should have the browser refuse both to a page of another origin", async () => {
    const elsewhere = await api({ environment: "production", webOrigins: ["https://game.example"] });
    expect(await callFromPage(page, elsewhere)).toEqual({ call: { failed: "Failed to fetch" }, socket: "error" });
  }, 20_000);
});
