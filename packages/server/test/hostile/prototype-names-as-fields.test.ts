import { describe, expect, it } from "vitest";
import { PROTOTYPE_NAMES } from "./hostile-input.js";
import { answerProblem, call, hostileWorld, methodTable } from "./hostile-world.js";

/*
 * Every prototype property name (`constructor`, `__proto__`, `toString`, …)
 * as every string field, list item and map key of every method, the other
 * fields set to values that exist, so that the call reaches the service:
 * SessionService/Join with `platform: "constructor"` answered 500 once.
 */
describe("prototype property names as every string field of every method", () => {
  it("should never answer 5xx, name a field in invalid_argument, and change nothing when refused", async () => {
    await using world = await hostileWorld();
    const failures: string[] = [];
    let calls = 0;
    for (const { method, input, fields } of methodTable()) {
      const base: Record<string, unknown> = {};
      for (const field of input.fields) {
        const value = world.valueFor(field.name);
        if (value !== undefined && field.shape.kind === "scalar" && field.shape.type === "string") base[field.name] = value;
      }
      const caller = world.callerFor(method.auth);
      for (const field of input.fields) {
        const { shape } = field;
        const asString = shape.kind === "scalar" && shape.type === "string";
        const asList = shape.kind === "list" && shape.item.kind === "scalar" && shape.item.type === "string";
        if (!asString && !asList && shape.kind !== "map") continue;
        for (const name of PROTOTYPE_NAMES) {
          const value = asString ? JSON.stringify(name) : asList ? JSON.stringify([name]) : `{${JSON.stringify(name)}:"#ffffff"}`;
          const others = Object.entries(base).filter(([k]) => k !== field.name).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)},`).join("");
          const body = `{${others}${JSON.stringify(field.name)}:${value}}`;
          calls += 1;
          const answer = await call(world.fetch, world.baseUrl, method, body, caller.token);
          const problem = answerProblem(answer, fields);
          if (problem) failures.push(`${method.path} ${field.name}=${name}: ${problem}`);
          // A refused call changes nothing; one that succeeded may have changed anything: the next starts from the world again.
          const changed = await world.settle(answer.status !== 200);
          if (changed.length > 0) failures.push(`${method.path} ${field.name}=${name}: refused but wrote ${changed.join(", ")}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(world.internalErrors).toEqual([]);
    expect(calls).toBeGreaterThan(1500);
  }, 120_000);
});
