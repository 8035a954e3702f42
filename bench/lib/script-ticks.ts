import { createScriptRuntime } from "@playfield/script-runtime";
import type { ScriptEnginesFactory } from "@playfield/script-runtime";

/**
 * Script-ticks per second over `ticks` ticks of `count` copies of `source`,
 * the best of three runs (the machine may be shared).
 */
export async function ticksPerSecond(source: string, count: number, ticks: number, language: "js" | "py" = "js", engines?: ScriptEnginesFactory): Promise<number> {
  const runtime = createScriptRuntime({ config: { memory_limit_bytes: 1024 * 1024 }, engines });
  for (let i = 0; i < count; i++) await runtime.run("script.load", { name: `s${i}`, source, language });
  await runtime.step(2);
  let best = 0;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    await runtime.step(ticks);
    best = Math.max(best, (count * ticks) / ((performance.now() - started) / 1000));
  }
  await runtime.dispose();
  return best;
}
