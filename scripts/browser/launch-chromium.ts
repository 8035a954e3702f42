import { chromium, type Browser } from "playwright-core";
import { inject } from "vitest";

/**
 * The Chromium binary found by the browser project's global setup, or null
 * when there is none: `describe.runIf(chromiumPath)(…)` skips the suite then
 * (the setup has already said why, once).
 */
export const chromiumPath: string | null = inject("chromiumPath");

/**
 * Launches headless Chromium through playwright-core (never a downloaded
 * browser). Playwright gives every launch a fresh, throwaway profile; the
 * flags keep the browser off the network and out of first-run chores.
 */
export function launchChromium(): Promise<Browser> {
  if (!chromiumPath) throw new Error("no Chromium: guard the suite with describe.runIf(chromiumPath)");
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
      "--disable-sync", "--no-first-run",
    ],
  });
}
