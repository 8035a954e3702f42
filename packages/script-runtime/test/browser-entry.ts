import { createScriptRuntime } from "../src/index.js";
import { drive, planOptions } from "./determinism-plan.js";

/*
 * The page side of runtime.browser.test.ts, bundled for the browser: runs
 * the determinism plan in the page and answers its script.list.
 */
(globalThis as { runPlan?: () => Promise<unknown> }).runPlan = async () => {
  const runtime = createScriptRuntime(planOptions());
  try {
    return await drive(runtime);
  } finally {
    await runtime.dispose();
  }
};
