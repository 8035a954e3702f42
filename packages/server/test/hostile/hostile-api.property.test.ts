import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMemoryServer } from "@playfield/server-memory";
import { answerProblem, call, changedTables, hostileWorld, methodTable, withinMs } from "./hostile-world.js";
import { hostileBody } from "./hostile-input.js";

/*
 * Hostile requests to every method of the descriptors, in process, from
 * every kind of caller: never a 5xx, never a hang, an invalid_argument names
 * a field, and a refused call leaves storage exactly as it was.
 */

const RUNS = Number(process.env.PLAYFIELD_FUZZ_RUNS ?? 800);
const methods = methodTable();

describe("hostile requests to every method, in process", () => {
  it(`should never answer 5xx or hang, name a field in invalid_argument, and change nothing when refused (${RUNS} cases)`, async () => {
    const internalErrors: unknown[] = [];
    const world = await hostileWorld(createMemoryServer({ onInternalError: (error) => { internalErrors.push(error); } }));
    const { server } = world;
    const handler = (request: Request) => server.handle(request);
    const cases = fc.constantFrom(...methods).chain(({ method, input, fields }) =>
      fc.record({ body: hostileBody(input, world.known), caller: fc.constantFrom(...world.callers) }).map((c) => ({ ...c, method, fields })));
    await fc.assert(fc.asyncProperty(cases, async ({ method, fields, body, caller }) => {
      const answer = await withinMs(call(handler, "http://playfield.test", method, body, caller.token), 5_000, method.path);
      const problem = answerProblem(answer, fields);
      expect(problem, `${method.path} as ${caller.kind}`).toBeNull();
      if (answer.status !== 200) {
        const changed = changedTables(world.baselineState, await world.state());
        expect(changed, `${method.path} as ${caller.kind} refused (${String(answer.body.message).slice(0, 120)}) but wrote`).toEqual([]);
      } else {
        // A call that succeeded may have changed anything: the next case starts from the world again.
        await server.restore(world.baseline);
      }
      expect(internalErrors).toEqual([]);
    }), { numRuns: RUNS });
  }, 120_000);
});
