import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerProblem, call, hostileWorld, methodTable, withinMs } from "./hostile-world.js";
import { hostileBody } from "./hostile-input.js";
import { propertyRuns } from "../property-runs.js";

/*
 * Hostile requests to every method of the descriptors, in process, from
 * every kind of caller: never a 5xx, never a hang, an invalid_argument names
 * a field, and a refused call leaves storage exactly as it was.
 */

const RUNS = propertyRuns("PLAYFIELD_FUZZ_RUNS", { memory: 800, database: 150 });
const methods = methodTable();

describe("hostile requests to every method, in process", () => {
  it(`should never answer 5xx or hang, name a field in invalid_argument, and change nothing when refused (${RUNS.numRuns} cases)`, async () => {
    await using world = await hostileWorld();
    const cases = fc.constantFrom(...methods).chain(({ method, input, fields }) =>
      fc.record({ body: hostileBody(input, world.known), caller: fc.constantFrom(...world.callers) }).map((c) => ({ ...c, method, fields })));
    await fc.assert(fc.asyncProperty(cases, async ({ method, fields, body, caller }) => {
      const answer = await withinMs(call(world.fetch, world.baseUrl, method, body, caller.token), 5_000, method.path);
      const problem = answerProblem(answer, fields);
      expect(problem, `${method.path} as ${caller.kind}`).toBeNull();
      // A call that succeeded may have changed anything: the next case starts from the world again.
      const changed = await world.settle(answer.status !== 200);
      expect(changed, `${method.path} as ${caller.kind} refused (${String(answer.body.message).slice(0, 120)}) but wrote`).toEqual([]);
      expect(world.internalErrors).toEqual([]);
    }), RUNS);
  }, 120_000);
});
