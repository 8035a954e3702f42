import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stateHash } from "../src/index.js";
import { list, newRuntime } from "./helpers.js";

type Op =
  | { kind: "load"; name: string; k: number }
  | { kind: "pause" | "resume" | "unload"; name: string }
  | { kind: "step"; ticks: number };

const source = (k: number) => `export default { init() { return { n: 0 } }, onTick() { this.state.n += ${k} } }`;

/** The state table as a model: loaded scripts in load order, each with its counter, step and paused flag. */
interface Model { scripts: Map<string, { n: number; k: number; paused: boolean }>; queue: Op[]; tick: number }

function applyModel(model: Model, op: Op): void {
  if (op.kind !== "step") { model.queue.push(op); return; }
  for (let t = 0; t < op.ticks; t++) {
    for (const q of model.queue.splice(0)) {
      if (q.kind === "step") continue;
      const s = model.scripts.get(q.name);
      if (q.kind === "load") {
        if (s) s.k = q.k; else model.scripts.set(q.name, { n: 0, k: q.k, paused: false });
      } else if (q.kind === "unload") model.scripts.delete(q.name);
      else if (q.kind === "pause" && s) s.paused = true;
      else if (q.kind === "resume" && s) s.paused = false;
    }
    model.tick += 1;
    for (const s of model.scripts.values()) if (!s.paused) s.n += s.k;
  }
}

describe("script runtime model", () => {
  it("should keep script.list consistent with the state table over random command sequences", async () => {
    const name = fc.constantFrom("a", "b", "c");
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant("load" as const), name, k: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constantFrom("pause" as const, "resume" as const, "unload" as const), name }),
      fc.record({ kind: fc.constant("step" as const), ticks: fc.integer({ min: 1, max: 3 }) }),
    );
    await fc.assert(fc.asyncProperty(fc.array(op, { maxLength: 25 }), async (ops) => {
      const runtime = newRuntime();
      const model: Model = { scripts: new Map(), queue: [], tick: 0 };
      for (const o of [...ops, { kind: "step", ticks: 1 } as Op]) {
        if (o.kind === "step") {
          await runtime.step(o.ticks);
        } else {
          const known = model.scripts.has(o.name) || model.queue.some((q) => q.kind === "load" && q.name === o.name);
          const outcome = await runtime.dispatch(`script.${o.kind}`, o.kind === "load" ? { name: o.name, source: source(o.k) } : { name: o.name });
          if (o.kind !== "load" && !known) {
            expect(outcome).toMatchObject({ ok: false, error: { code: "not_found" } });
            continue;
          }
          expect(outcome.ok).toBe(true);
        }
        applyModel(model, o);
        if (o.kind === "step") {
          const listed = await list(runtime);
          expect(listed.tick).toBe(model.tick);
          expect(listed.sim_ms).toBe(model.tick * 50);
          expect(listed.scripts.map((s) => [s.name, s.paused, s.state_hash, s.faults])).toEqual(
            [...model.scripts].map(([n, s]) => [n, s.paused, stateHash(`{"n":${s.n}}`), 0]),
          );
          expect(listed.log.length).toBeLessThanOrEqual(200);
        }
      }
      await runtime.dispose();
    }), { numRuns: 25 });
  }, 60_000);
});
