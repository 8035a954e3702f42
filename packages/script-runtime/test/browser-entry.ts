import { createScriptRuntime } from "../src/index.js";
import { drive, MODULES } from "./determinism-plan.js";

/*
 * The page side of runtime.browser.test.ts, bundled for the browser: runs
 * the determinism plan in the page and answers its script.list.
 */
(globalThis as { runPlan?: () => Promise<unknown> }).runPlan = async () => {
  const runtime = createScriptRuntime({ modules: MODULES, seed: 7 });
  try {
    return await drive(runtime);
  } finally {
    await runtime.dispose();
  }
};
