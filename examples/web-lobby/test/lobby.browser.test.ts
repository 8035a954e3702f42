import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createClient } from "@playfield/client";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, launchChromium } from "../../../scripts/browser/launch-chromium.js";

/*
 * The lobby end to end, as players use it: the real server (the CLI behind
 * `npm start`) on a free port, the lobby's Vite dev server on another origin,
 * and two Chromium pages, Ada's and Bob's.
 */

const here = fileURLToPath(new URL("..", import.meta.url));
// The command as npm links it (the committed launcher runs the source in a checkout).
const bin = fileURLToPath(new URL("../../../packages/cli/bin/playfield-server.js", import.meta.url));
// Generous: on a busy machine a password hash and a page load take seconds.
const STEP = { timeout: 45_000 };

/** Polls until the page shows what is expected (a realtime event may take a moment). */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

/** Starts `playfield-server --demo` (what `npm start` runs) on a free port; resolves with its URL once it listens. */
async function startPlayfieldServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [bin, "--demo", "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`playfield-server exited with ${code}`)));
  });
  const url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
  if (!url) throw new Error(`playfield-server said: ${line}`);
  return { url, child };
}

describe.runIf(chromiumPath)("the web lobby in two browsers", () => {
  let server: { url: string; child: ChildProcess };
  let vite: ViteDevServer;
  let browser: Browser;
  let lobbyUrl: string;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];
  let ada: Page;
  let bob: Page;

  /** A page of its own (own localStorage, so own tokens) at the lobby. */
  async function openLobby(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 720 } });
    contexts.push(context);
    const page = await context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => { if (message.type() === "error") pageErrors.push(message.text()); });
    await page.goto(lobbyUrl);
    return page;
  }

  const experienceTitles = (page: Page) => page.locator("#experiences li strong").allTextContents();
  const roster = (page: Page) => page.locator("#roster li").evaluateAll((items) => items.map((li) => li.getAttribute("data-member")));
  const chat = (page: Page) => page.locator("#chat li").allTextContents();
  const presenceOf = (page: Page, username: string) => page.locator(`#friends li[data-friend="${username}"] .presence`);

  beforeAll(async () => {
    // The demo data a newcomer's `npm start` has: the page (and the README's picture) shows what they see.
    server = await startPlayfieldServer();
    await createClient({ baseUrl: server.url }).identity.signUp({ username: "bob_b", password: "bob's password", birthdate: "1992-08-21", displayName: "Bob" });
    vite = await createServer({ root: here, configFile: `${here}vite.config.ts`, logLevel: "error", server: { port: 0, strictPort: false } });
    await vite.listen();
    // The page's origin (another port than the API's) and the API it talks to.
    lobbyUrl = `${vite.resolvedUrls!.local[0]}?server=${encodeURIComponent(server.url)}`;
    expect(new URL(lobbyUrl).origin).not.toBe(new URL(server.url).origin);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await vite?.close();
    server?.child.kill("SIGTERM");
  });

  it("should show no connection badge while signed out", STEP, async () => {
    const newcomer = await openLobby();
    await eventually(() => newcomer.locator("#sign-in").isVisible()).toBe(true);
    expect(await newcomer.locator("#connection").isVisible()).toBe(false);
    await eventually(() => newcomer.locator('#experiences li[data-experience="Sky Islands"] .meta').textContent())
      .toBe("by Playfield Demo · adventure · 0 playing");
  });

  it("should play as a guest from another origin: popular experiences, then a search", STEP, async () => {
    const guest = await openLobby();
    await guest.getByRole("button", { name: "Play as guest" }).click();
    await eventually(() => guest.locator("#who").textContent()).toMatch(/^Guest_\d+ \(guest\)$/);
    await eventually(() => experienceTitles(guest)).toEqual(expect.arrayContaining(["Sky Islands", "Dune Racers", "Tower Tycoon"]));
    await guest.getByRole("searchbox", { name: "Search experiences" }).fill("dune");
    await guest.getByRole("button", { name: "Search", exact: true }).click();
    await eventually(() => experienceTitles(guest)).toEqual(["Dune Racers"]);
    await eventually(() => guest.locator("#connection").textContent()).toBe("ready");
    await guest.getByRole("button", { name: "Sign out" }).click();
    await eventually(() => guest.locator("#sign-in").isVisible()).toBe(true);
    expect(await guest.locator("#connection").isVisible()).toBe(false);
  });

  it("should sign Ada up and Bob in, and make them friends who see each other online", STEP, async () => {
    ada = await openLobby();
    await ada.getByLabel("Username", { exact: true }).fill("ada_l");
    await ada.getByLabel("Password", { exact: true }).fill("analytical engine");
    await ada.getByLabel("Birthdate").fill("1990-12-10");
    await ada.getByRole("button", { name: "Create account" }).click();
    bob = await openLobby();
    await bob.getByLabel("Username", { exact: true }).fill("bob_b");
    await bob.getByLabel("Password", { exact: true }).fill("bob's password");
    await bob.getByRole("button", { name: "Sign in" }).click();
    await eventually(() => bob.locator("#who").textContent()).toBe("Bob");

    await ada.getByLabel("Friend's username").fill("bob_b");
    await ada.getByRole("button", { name: "Add friend" }).click();
    await eventually(() => ada.locator("#notice").textContent()).toBe("friend request sent to bob_b");
    await bob.getByRole("button", { name: "Refresh" }).click();
    await bob.locator('#requests li[data-request="ada_l"]').getByRole("button", { name: "Accept" }).click();

    await eventually(() => presenceOf(bob, "ada_l").textContent()).toBe("online");
    await eventually(() => presenceOf(ada, "bob_b").textContent()).toBe("online");
  });

  it("should let Ada join, invite Bob, and show both of them the same live roster", STEP, async () => {
    await ada.locator('#experiences li[data-experience="Sky Islands"]').getByRole("button", { name: "Join" }).click();
    await eventually(() => ada.locator("#session-title").textContent()).toBe("Sky Islands");
    await eventually(() => roster(ada)).toEqual(["ada_l"]);
    await eventually(() => presenceOf(bob, "ada_l").textContent()).toBe("in game: Sky Islands");

    await ada.locator('#friends li[data-friend="bob_b"]').getByRole("button", { name: "Invite" }).click();
    const invite = bob.locator("#invites li");
    await eventually(() => invite.textContent()).toBe("ada_l invites you to Sky Islands Join");
    await invite.getByRole("button", { name: "Join" }).click();

    await eventually(() => roster(bob)).toEqual(["ada_l", "bob_b"]);
    await eventually(() => roster(ada)).toEqual(["ada_l", "bob_b"]);
    expect(await bob.locator("#session-title").textContent()).toBe("Sky Islands");
  });

  it("should carry each one's chat to the other over the realtime connection", STEP, async () => {
    await ada.getByLabel("Chat message").fill("hello from ada");
    await ada.getByRole("button", { name: "Send" }).click();
    await eventually(() => chat(bob)).toEqual(["ada_l: hello from ada"]);
    await bob.getByLabel("Chat message").fill("hi Ada, Bob here");
    await bob.getByRole("button", { name: "Send" }).click();
    const both = ["ada_l: hello from ada", "Bob: hi Ada, Bob here"];
    await eventually(() => chat(ada)).toEqual(both);
    await eventually(() => chat(bob)).toEqual(both);
    await eventually(() => ada.locator("#notice").textContent()).toBe("");
    // The README's picture: both in Sky Islands, talking.
    if (process.env.PLAYFIELD_UPDATE_SCREENSHOTS) await ada.screenshot({ path: `${here}lobby.png`, clip: { x: 0, y: 0, width: 1100, height: 400 } });
  });

  it("should see Bob leave on Ada's roster, with no page error on the way", STEP, async () => {
    await bob.getByRole("button", { name: "Leave" }).click();
    await eventually(() => roster(ada)).toEqual(["ada_l"]);
    await eventually(() => presenceOf(ada, "bob_b").textContent()).toBe("online");
    expect(pageErrors).toEqual([]);
  });
});
