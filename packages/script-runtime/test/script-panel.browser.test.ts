import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, launchChromium } from "../../../scripts/browser/launch-chromium.js";
import { createScriptServer } from "../src/cli/serve.js";
import type { ScriptServer } from "../src/cli/serve.js";
import type { ScriptList } from "../src/index.js";
import { createScriptEditor } from "../src/editor/create-script-editor.js";
import type { ScriptEditor } from "../src/editor/create-script-editor.js";
import { createReferenceWorld } from "../src/kinds/reference-world.js";

const VIEWPORT = { width: 1100, height: 760 };

/** Width and height from a PNG's IHDR chunk, after checking its signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe.runIf(chromiumPath)("the Scripts panel page", () => {
  let browser: Browser;
  let page: Page;
  let server: ScriptServer;
  let project: string;
  let editor: ScriptEditor;

  beforeAll(async () => {
    // One project and editor for the whole page session (the fixture helpers clean up after each test).
    project = mkdtempSync(join(tmpdir(), "playfield-panel-"));
    mkdirSync(join(project, "scripts"));
    writeFileSync(join(project, "scripts/door.js"), "export default { init() { return { n: 0 } }, onTick() { this.state.n += 1 } }");
    writeFileSync(join(project, "scripts/bad.js"), "export default { onTick() { throw new Error('hinge stuck') } }");
    editor = createScriptEditor({ project, kinds: () => createReferenceWorld(), debounceMs: 50 });
    editor.runtime.start();
    server = await createScriptServer(editor.runtime);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(server.url);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await editor?.dispose();
    rmSync(project, { recursive: true, force: true });
  });

  const row = (name: string) => page.locator(`tr[data-script="${name}"]`);
  const list = async () => (await editor.runtime.run("script.list")) as ScriptList;

  it("should list the files and load one with its button", { timeout: 20_000 }, async () => {
    await expect.poll(() => page.locator("#files li").allTextContents()).toEqual(["scripts/bad.jsEditLoad", "scripts/door.jsEditLoad"]);
    await page.getByTestId("load-door").click();
    await page.getByTestId("load-bad").click();
    await row("door").waitFor();
    await row("bad").waitFor();
    await expect.poll(async () => row("door").locator("td").nth(1).textContent()).toBe("running");
  });

  it("should show fuel used against the budget, faults and the last fault", async () => {
    await expect.poll(async () => row("bad").locator("td").nth(4).textContent()).toBe("onTick: Error: hinge stuck");
    expect(await row("door").locator("td").nth(2).textContent()).toMatch(/^\d[\d,]* \/ 200,000$/);
    expect(Number(await row("bad").locator("td").nth(3).textContent())).toBeGreaterThan(0);
  });

  it("should pause, resume and unload through the same commands", { timeout: 20_000 }, async () => {
    await page.getByTestId("pause-door").click();
    await expect.poll(async () => (await list()).scripts.find((s) => s.name === "door")?.paused).toBe(true);
    await expect.poll(async () => row("door").locator("td").nth(1).textContent()).toBe("paused");
    await page.getByTestId("resume-door").click();
    await expect.poll(async () => (await list()).scripts.find((s) => s.name === "door")?.paused).toBe(false);
    await page.getByTestId("unload-bad").click();
    await expect.poll(async () => (await list()).scripts.map((s) => s.name)).toEqual(["door"]);
    await expect.poll(() => row("bad").count()).toBe(0);
  });

  it("should show the log", async () => {
    await expect.poll(() => page.locator("#log").textContent()).toMatch(/loaded door[\s\S]*paused door[\s\S]*resumed door[\s\S]*unloaded bad/);
  });

  it("should edit a file in the code editor and hot-reload the script on save", { timeout: 20_000 }, async () => {
    await page.getByTestId("edit-door").click();
    await expect.poll(() => page.locator("#editing").textContent()).toBe("· scripts/door.js");
    expect(await page.locator("#source").inputValue()).toContain("this.state.n += 1");
    await page.locator("#source").fill("export default { init() { return { n: 0 } }, onTick() { this.state.n += 2 } }");
    await page.locator("#save").click();
    await expect.poll(() => readFileSync(join(project, "scripts/door.js"), "utf8")).toContain("this.state.n += 2");
    await expect.poll(async () => (await list()).log.some((l) => l.endsWith("reloaded door (state kept)")), { timeout: 10_000 }).toBe(true);
    await page.getByTestId("reload-door").click();
    await expect.poll(async () => (await list()).log.filter((l) => l.includes("reloaded door")).length).toBe(2);
  });

  it("should hide and show the panel, and look right in a screenshot", async () => {
    const box = (await page.locator("#scripts").boundingBox())!;
    const inside: [number, number] = [Math.round(box.x + 2), Math.round(box.y + 2)];
    const shown = await page.screenshot();
    expect(pngSize(shown)).toEqual(VIEWPORT);
    await page.locator("#toggle-panel").click();
    await expect.poll(() => editor.panel.open).toBe(false);
    await page.locator("#hidden").waitFor({ state: "visible" });
    const hidden = await page.screenshot();
    expect(pngSize(hidden)).toEqual(VIEWPORT);
    // The header bar is dark; the scripts table sits on a white card, which is gone when the panel is hidden.
    expect(await pixels(shown, [[4, 4], inside])).toEqual([[29, 35, 48], [255, 255, 255]]);
    expect(await pixels(hidden, [[4, 4], inside])).toEqual([[29, 35, 48], [244, 245, 247]]);
    await page.locator("#show-panel").click();
    await expect.poll(() => editor.panel.open).toBe(true);
  });

  /** The RGB colours of a PNG at some points, decoded by the browser itself. */
  async function pixels(png: Buffer, points: [number, number][]): Promise<number[][]> {
    const scratch = await browser.newPage();
    try {
      return await scratch.evaluate(async ({ data, at }) => {
        const img = new Image();
        img.src = `data:image/png;base64,${data}`;
        await img.decode();
        const canvas = document.createElement("canvas");
        canvas.width = img.width;
        canvas.height = img.height;
        const g = canvas.getContext("2d")!;
        g.drawImage(img, 0, 0);
        return at.map(([x, y]) => [...g.getImageData(x, y, 1, 1).data.slice(0, 3)]);
      }, { data: png.toString("base64"), at: points });
    } finally {
      await scratch.close();
    }
  }
});
