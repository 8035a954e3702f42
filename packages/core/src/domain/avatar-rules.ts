/*
 * Avatar rules beyond the request schema (see docs/avatar.md): body parts
 * that take a tint, body and base ids, worn items and emotes that must be
 * owned items of the right kind, proportions in the spec's ranges. Pure:
 * the service passes in what the user owns.
 */
import { ownValue } from "../json/own-value.js";
import { EMOTE_SLOTS, PROPORTION_RANGES } from "../schemas/avatar.js";

/** The version of the avatar format the server writes. */
export const AVATAR_SPEC_VERSION = 1;

/** Body parts that take a tint. */
export const AVATAR_PARTS = ["head", "torso", "left_arm", "right_arm", "left_leg", "right_leg"] as const;
export type AvatarPart = (typeof AVATAR_PARTS)[number];

/** Item kinds that can be worn, and the kind an emote slot takes. */
export const WEARABLE_KINDS: readonly string[] = ["avatar_hat", "avatar_shirt"];
export const EMOTE_KIND = "avatar_emote";

/** Body and base ids: 1 to 64 letters, digits, `_`, `-` or `.`. */
export const AVATAR_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

export type ProportionName = keyof typeof PROPORTION_RANGES;
export type Proportions = Record<ProportionName, number>;

/** The avatar of a user who never saved one. */
export const DEFAULT_AVATAR = {
  body: "standard",
  base: "standard",
  tints: { head: "#f2c9a0", torso: "#3b82f6", left_arm: "#f2c9a0", right_arm: "#f2c9a0", left_leg: "#1f2937", right_leg: "#1f2937" } as Record<string, string>,
  proportions: { height: 0, head: 0, torso: 0, arms: 0, legs: 0, shoulders: 0, hips: 0 } as Proportions,
};

/** What SetAvatar asks to save. */
export interface AvatarInput {
  body: string;
  tints: Record<string, string>;
  wornItemIds: readonly string[];
  emotes: Record<number | string, string>;
  base: string;
  proportions?: Partial<Proportions> | undefined;
}

/** The first problem of an avatar, as `field: rule`, or null when it may be saved. `ownedKinds` maps each owned item id to its kind. */
export function avatarProblem(input: AvatarInput, ownedKinds: ReadonlyMap<string, string>): string | null {
  if (input.body !== "" && !AVATAR_ID_PATTERN.test(input.body)) return "body: 1 to 64 letters, digits, _, - or .";
  if (input.base !== "" && !AVATAR_ID_PATTERN.test(input.base)) return "base: 1 to 64 letters, digits, _, - or .";
  for (const [part, colour] of Object.entries(input.tints)) {
    if (!(AVATAR_PARTS as readonly string[]).includes(part)) return `tints.${part}: not a body part (${AVATAR_PARTS.join(", ")})`;
    if (!/^#[0-9a-fA-F]{6}$/.test(colour)) return `tints.${part}: #rrggbb`;
  }
  const seen = new Set<string>();
  // Ids are quoted: one that is blank or invisible must still read as a value after "field: ".
  for (const id of input.wornItemIds) {
    if (seen.has(id)) return `wornItemIds: ${JSON.stringify(id)} is listed twice`;
    seen.add(id);
    const kind = ownedKinds.get(id);
    if (kind === undefined) return `wornItemIds: ${JSON.stringify(id)} is not an item you own`;
    if (!WEARABLE_KINDS.includes(kind)) return `wornItemIds: ${JSON.stringify(id)} is not a wearable avatar item`;
  }
  for (const [slot, id] of Object.entries(input.emotes)) {
    const n = Number(slot);
    if (!(Number.isInteger(n) && n >= 1 && n <= EMOTE_SLOTS)) return `emotes.${slot}: slots are 1 to ${EMOTE_SLOTS}`;
    const kind = ownedKinds.get(id);
    if (kind === undefined) return `emotes.${slot}: ${JSON.stringify(id)} is not an item you own`;
    if (kind !== EMOTE_KIND) return `emotes.${slot}: ${JSON.stringify(id)} is not an emote`;
  }
  for (const [name, value] of Object.entries(input.proportions ?? {})) {
    const range = ownValue<readonly [number, number]>(PROPORTION_RANGES, name);
    if (!range || value === undefined) continue;
    if (!(value === 0 || (value >= range[0] && value <= range[1]))) return `proportions.${name}: 0 (unset) or ${range[0]} to ${range[1]}`;
  }
  return null;
}

/** The factor a proportion stands for: 0 (unset) is 1.0. */
export function proportionFactor(value: number): number {
  return value === 0 ? 1 : value;
}

/** The item ids an avatar input refers to (worn and emotes), each once. */
export function referencedItemIds(input: Pick<AvatarInput, "wornItemIds" | "emotes">): string[] {
  return [...new Set([...input.wornItemIds, ...Object.values(input.emotes)])];
}
