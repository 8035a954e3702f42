import { accessSync, constants } from "node:fs";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  interface ProvidedContext {
    /** The Chromium binary the browser tests drive, or null when there is none (they skip). */
    chromiumPath: string | null;
  }
}

// Debian's package, or the binary CHROMIUM_PATH names.
const DEFAULT_CHROMIUM = "/usr/bin/chromium";
const HOW = "Install it with `apt-get install chromium` (Debian, Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome binary.";

/**
 * Global setup of the "browser" test project: runs once, and only when a
 * browser test is about to run. Without Chromium the browser tests skip and
 * this says so once; in CI (CI or PLAYFIELD_CI set) a missing Chromium fails
 * the run, so that skipped browser tests never pass as green.
 */
export default function setup(project: TestProject): void {
  const path = process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
  let found = true;
  try {
    accessSync(path, constants.X_OK);
  } catch {
    found = false;
  }
  if (!found) {
    const missing = `Chromium not found at ${path}`;
    if (process.env.CI || process.env.PLAYFIELD_CI) {
      throw new Error(`${missing}, and browser tests may not be skipped in CI. ${HOW}`);
    }
    console.warn(`\n  Browser tests skipped: ${missing}. ${HOW}\n`);
  }
  project.provide("chromiumPath", found ? path : null);
}
