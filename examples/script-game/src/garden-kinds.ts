import { createGameKinds } from "@playfield/script-runtime";
import type { GameKindsWithWorld, KindWorld, KindsDeclarationInput } from "@playfield/script-runtime";

/**
 * The garden game's kinds: the `Garden` (its weather), `Plant`s that grow
 * while they have water, and `Gardener`s (the players). The game declares
 * them once; scripts reach them through `game`, and the script
 * configuration decides what players' live scripts may touch.
 */
export const GARDEN_KINDS: KindsDeclarationInput = {
  types: [],
  kinds: [
    {
      kind: "Garden",
      doc: "The garden: one object, garden-1.",
      fields: [
        { name: "sunshine", js: "sunshine", type: "number", write: true, range: [0, 1], default: 0.5, doc: "How fast plants grow: 0 (night) to 1 (noon)." },
        { name: "day", js: "day", type: "integer", doc: "Days since the garden opened (read-only)." },
      ],
      methods: [],
    },
    {
      kind: "Plant",
      doc: "A plant: it grows while it has water, and drinks as it grows.",
      spawnable: true,
      fields: [
        { name: "species", js: "species", type: "string", write: true, default: "sunflower", doc: "What it is." },
        { name: "water", js: "water", type: "number", write: true, range: [0, 1], default: 0.5, doc: "Water in its soil." },
        { name: "growth", js: "growth", type: "number", range: [0, 1], doc: "0 for a seed, 1 when it can be harvested (read-only)." },
        { name: "harvests", js: "harvests", type: "integer", doc: "How many times it was harvested (read-only)." },
      ],
      methods: [
        { name: "harvest", js: "harvest", returns: "number", rate_per_s: 5, doc: "Harvests a grown plant: answers the yield and starts it again; 0 before it is grown." },
      ],
    },
    {
      kind: "Gardener",
      doc: "A player tending the garden.",
      fields: [
        { name: "display_name", js: "displayName", type: "string", doc: "The player's name." },
        { name: "basket", js: "basket", type: "integer", write: true, range: [0, 10_000], doc: "Harvested yield carried." },
      ],
      methods: [],
    },
  ],
};

/** A garden game's kinds with its world (a garden, three plants and two gardeners). */
export function createGardenKinds(): GameKindsWithWorld {
  return createGameKinds({
    declarations: GARDEN_KINDS,
    setup(world) {
      world.spawn("Garden");
      for (const species of ["sunflower", "bean", "tomato"]) world.spawn("Plant", { species, water: 0.8 });
      world.spawn("Gardener", { display_name: "Gardener1" });
      world.spawn("Gardener", { display_name: "Gardener2" });
    },
    methods: {
      Plant: {
        harvest(plant, _args, { world }) {
          if ((plant.fields.growth as number) < 1) return 0;
          world.set(plant.id, "growth", 0);
          world.set(plant.id, "harvests", (plant.fields.harvests as number) + 1);
          return plant.fields.species === "tomato" ? 3 : 2;
        },
      },
    },
    step: growGarden,
  });
}

/** One tick of the garden: plants with water grow by the sunshine and drink; a day is 1,200 ticks. */
export function growGarden(world: KindWorld, dtMs: number, tick: number): void {
  const garden = world.get("garden-1");
  const sunshine = (garden?.fields.sunshine as number | undefined) ?? 0.5;
  if (garden && tick % 1200 === 0) world.set(garden.id, "day", (garden.fields.day as number) + 1);
  const dt = dtMs / 1000;
  for (const plant of world.find("Plant")) {
    const water = plant.fields.water as number;
    if (water <= 0) continue;
    const grow = Math.min(1 - (plant.fields.growth as number), 0.1 * sunshine * dt);
    world.set(plant.id, "growth", (plant.fields.growth as number) + grow);
    world.set(plant.id, "water", Math.max(0, water - 0.02 * dt - grow / 2));
  }
}
