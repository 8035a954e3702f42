import { DatastoreService, JSON_DEPTH_MAX, SessionService } from "@playfield/core";
import { describe, expect, it } from "vitest";
import { nestedArrays, nestedObjects, PROTOTYPE_NAMES } from "../hostile/hostile-input.js";
import { call, hostileWorld } from "../hostile/hostile-world.js";

/*
 * The two reproductions of the hostile-input report, over the fetch handler:
 * SessionService/Join with `platform: "constructor"` answered 500 (and,
 * without `engineVersion`, a 400 quoting `function toString() { … }`);
 * DatastoreService/Update with a patch nested ~5,000 levels answered 500,
 * and Set took a value nested 30,000 deep. Each now answers 400
 * invalid_argument naming the field.
 */
describe("the hostile-input reproductions", () => {
  it("should answer Join with a prototype property name as platform 400 invalid_argument naming platform", async () => {
    await using world = await hostileWorld();
    const experienceId = world.valueFor("experienceId")!;
    for (const platform of PROTOTYPE_NAMES) {
      for (const engineVersion of ["1.2", undefined]) {
        const answer = await call(world.fetch, world.baseUrl, SessionService.methods.join,
          JSON.stringify({ experienceId, platform, engineVersion }), world.callerFor("guest").token);
        expect([answer.status, answer.body.code], platform).toEqual([400, "invalid_argument"]);
        expect(answer.body.message).toBe("platform: one of web, macos, windows, linux, ios, android (or empty)");
      }
    }
    expect(world.internalErrors).toEqual([]);
  });

  it("should answer Update with a patch nested 5,000 deep and Set with a value nested 30,000 deep 400 naming the field and the limit", async () => {
    await using world = await hostileWorld();
    const game = world.callerFor("game").token;
    const update = await call(world.fetch, world.baseUrl, DatastoreService.methods.update,
      `{"key":"save","patch":${JSON.stringify(`{"a":${nestedObjects(5_000)}}`)}}`, game);
    expect([update.status, update.body.code, update.body.message]).toEqual([400, "invalid_argument", `patch: at most ${JSON_DEPTH_MAX} levels of nesting`]);
    const set = await call(world.fetch, world.baseUrl, DatastoreService.methods.set,
      `{"key":"save","value":${JSON.stringify(nestedArrays(30_000))}}`, game);
    expect([set.status, set.body.code, set.body.message]).toEqual([400, "invalid_argument", `value: at most ${JSON_DEPTH_MAX} levels of nesting`]);
    expect(await world.settle(true)).toEqual([]);
    expect(world.internalErrors).toEqual([]);
  });
});
