import { createGameKinds } from "./create-game-kinds.js";
import type { GameKindsWithWorld } from "./create-game-kinds.js";
import type { KindsDeclarationInput } from "./kind-declaration.js";
import type { KindWorld, WorldObject } from "./kind-world.js";

/**
 * The reference world's declarations: a `World` (gravity, time), `Part`s
 * that scripts may spawn and push, `Player`s, and the value types `Vector3`
 * and `Color3`. Examples and tests use it; a game declares its own.
 */
export const REFERENCE_KINDS = {
  types: [
    { name: "Vector3", doc: "A position, velocity or size in studs.", fields: [{ name: "x", type: "number" }, { name: "y", type: "number" }, { name: "z", type: "number" }] },
    { name: "Color3", doc: "A colour; each channel from 0 to 1.", fields: [{ name: "r", type: "number" }, { name: "g", type: "number" }, { name: "b", type: "number" }] },
  ],
  kinds: [
    {
      kind: "World",
      doc: "The world itself: one object, world-1.",
      spawnable: false,
      fields: [
        { name: "gravity", js: "gravity", type: "number", read: true, write: true, range: [-100, 0], default: -10, doc: "Downward acceleration in studs per second squared." },
        { name: "sim_ms", js: "simMs", type: "integer", read: true, write: false, doc: "Simulated time in milliseconds." },
      ],
      methods: [
        { name: "announce", js: "announce", args: [{ name: "text", type: "string" }], rate_per_s: 2, doc: "Shows a message to every player." },
      ],
    },
    {
      kind: "Part",
      doc: "A box that falls, slides and rests on the ground (y = 0).",
      spawnable: true,
      fields: [
        { name: "name", js: "name", type: "string", read: true, write: true, doc: "A label." },
        { name: "position", js: "position", type: "Vector3", read: true, write: true, range: [-1000, 1000], doc: "Centre, in studs." },
        { name: "velocity", js: "velocity", type: "Vector3", read: true, write: true, range: [-200, 200], doc: "Studs per second." },
        { name: "size", js: "size", type: "Vector3", read: true, write: true, range: [0.1, 100], default: { x: 1, y: 1, z: 1 }, doc: "Edge lengths in studs." },
        { name: "color", js: "color", type: "Color3", read: true, write: true, range: [0, 1], default: { r: 0.5, g: 0.5, b: 0.5 }, doc: "Its colour." },
        { name: "anchored", js: "anchored", type: "boolean", read: true, write: true, doc: "An anchored part does not move." },
        { name: "mass", js: "mass", type: "number", read: true, write: false, default: 1, doc: "Its volume times 1 (read-only: follows its size)." },
      ],
      methods: [
        { name: "apply_impulse", js: "applyImpulse", args: [{ name: "impulse", type: "Vector3" }], rate_per_s: 10, doc: "Adds impulse / mass to its velocity." },
        { name: "distance_to", js: "distanceTo", args: [{ name: "point", type: "Vector3" }], returns: "number", doc: "Distance from its centre to a point." },
      ],
    },
    {
      kind: "Player",
      doc: "A player in the session.",
      spawnable: false,
      fields: [
        { name: "display_name", js: "displayName", type: "string", read: true, write: false, doc: "The player's display name." },
        { name: "user_id", js: "userId", type: "id", read: true, write: false, doc: "The player's account id." },
        { name: "score", js: "score", type: "integer", read: true, write: true, range: [0, 1_000_000], doc: "Points this session." },
        { name: "team", js: "team", type: "string", read: true, write: true, doc: "Team name, or empty." },
      ],
      methods: [
        { name: "send_message", js: "sendMessage", args: [{ name: "text", type: "string" }], rate_per_s: 1, doc: "Sends a private message to the player." },
      ],
    },
  ],
} as const satisfies KindsDeclarationInput;

/** Options of {@link createReferenceWorld}. */
export interface ReferenceWorldOptions {
  /** Display names of the players in the session (default `Player1`, `Player2`). */
  players?: readonly string[];
}

/** The reference world with the messages its methods sent (for hosts and tests). */
export interface ReferenceWorld extends GameKindsWithWorld {
  /** `announce` and `send_message` calls, in order: `[to, text]` (`to` is `all` or a player's object id). */
  readonly messages: [string, string][];
}

type Vec = { x: number; y: number; z: number };
const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));
const vec = (o: WorldObject, field: string) => o.fields[field] as Vec;

/**
 * Creates the reference world: `world-1`, the players, and simple
 * deterministic motion each tick: unanchored parts fall with the world's
 * gravity, move by their velocity and rest on the ground.
 *
 * @example
 * const world = createReferenceWorld();
 * const runtime = createScriptRuntime({ kinds: world });
 * await runtime.run("script.load", { name: "drop", source: "export default { onLoad() { game.spawn('Part', { position: { x: 0, y: 10, z: 0 } }) } }" });
 */
export function createReferenceWorld(options: ReferenceWorldOptions = {}): ReferenceWorld {
  const messages: [string, string][] = [];
  const kinds = createGameKinds({
    declarations: REFERENCE_KINDS,
    setup(world) {
      world.spawn("World");
      (options.players ?? ["Player1", "Player2"]).forEach((name, i) => world.spawn("Player", { display_name: name, user_id: `user-${i + 1}` }));
    },
    methods: {
      World: { announce: (_self, [text]) => { messages.push(["all", text as string]); } },
      Player: { send_message: (self, [text]) => { messages.push([self.id, text as string]); } },
      Part: {
        apply_impulse(self, [impulse], { world }) {
          const v = vec(self, "velocity");
          const i = impulse as Vec;
          const m = self.fields.mass as number;
          world.set(self.id, "velocity", { x: clamp(v.x + i.x / m, -200, 200), y: clamp(v.y + i.y / m, -200, 200), z: clamp(v.z + i.z / m, -200, 200) });
        },
        distance_to(self, [point]) {
          const p = vec(self, "position");
          const q = point as Vec;
          return Math.hypot(p.x - q.x, p.y - q.y, p.z - q.z);
        },
      },
    },
    step: (world, dtMs) => stepReferenceWorld(world, dtMs),
  });
  return Object.assign(kinds, { messages });
}

/** One tick of the reference world's motion. */
export function stepReferenceWorld(world: KindWorld, dtMs: number): void {
  const dt = dtMs / 1000;
  const root = world.get("world-1");
  const gravity = (root?.fields.gravity as number | undefined) ?? -10;
  if (root) world.set(root.id, "sim_ms", (root.fields.sim_ms as number) + dtMs);
  for (const part of world.find("Part")) {
    const size = vec(part, "size");
    const mass = Math.min(1_000_000, size.x * size.y * size.z);
    if (part.fields.mass !== mass) part.fields.mass = mass;
    if (part.fields.anchored) continue;
    const v = vec(part, "velocity");
    const p = vec(part, "position");
    const floor = size.y / 2;
    let vy = clamp(v.y + gravity * dt, -200, 200);
    let y = p.y + vy * dt;
    if (y <= floor) { y = floor; vy = 0; }
    const next = { x: clamp(p.x + v.x * dt, -1000, 1000), y: clamp(y, -1000, 1000), z: clamp(p.z + v.z * dt, -1000, 1000) };
    world.set(part.id, "velocity", { x: v.x, y: vy, z: v.z });
    world.set(part.id, "position", next);
  }
}
