import { AvatarService } from "@playfield/core";
import { describe, expect, it } from "vitest";
import { answerProblem, call, hostileWorld, methodTable } from "../hostile/hostile-world.js";

/*
 * SetAvatar with a worn item id of " " (or U+FEFF) answered
 * "wornItemIds:   is not an item you own": the id, written bare, left
 * nothing readable after "field: ". Ids in these messages are quoted now.
 */
describe("a blank or invisible item id in SetAvatar", () => {
  it("should answer invalid_argument naming the field, with the id quoted", async () => {
    await using world = await hostileWorld();
    const { fields } = methodTable().find(({ method }) => method === AvatarService.methods.setAvatar)!;
    for (const id of [" ", "\ufeff"]) {
      for (const body of [{ wornItemIds: [id] }, { emotes: { 1: id } }]) {
        const answer = await call(world.fetch, world.baseUrl, AvatarService.methods.setAvatar, JSON.stringify(body), world.callerFor("account").token);
        expect([answer.status, answer.body.code]).toEqual([400, "invalid_argument"]);
        expect(answerProblem(answer, fields)).toBeNull();
        expect(answer.body.message).toContain(`${JSON.stringify(id)} is not an item you own`);
        expect(await world.settle(true)).toEqual([]);
      }
    }
    expect(world.internalErrors).toEqual([]);
  });
});
