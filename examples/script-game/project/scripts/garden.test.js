// The game's own script tests, run by editor.scripts.check inside the sandbox.
import { test, assert } from "@playfield/test";
import { needsWater, THIRSTY } from "modules/care";

test("a plant below the threshold needs water", () => {
  assert.ok(needsWater({ water: THIRSTY - 0.01 }));
  assert.equal(needsWater({ water: 0.9 }), false);
});

test("a plant grows while it has water", async () => {
  const plant = game.spawn("Plant", { species: "bean", water: 1 });
  await wait(2000);
  assert.ok(plant.growth > 0, "growth " + plant.growth);
});

test("growth is read-only for scripts", () => {
  const plant = game.find("Plant")[0];
  assert.throws(() => { plant.growth = 1; }, "read-only");
});
