/*
 * Schemas of the AvatarService.
 *
 * Caps (the spec leaves them open): ids, `body` and `base` at most 64
 * characters; at most 32 tints, each keyed by a part name of 1 to 32
 * characters, valued `#rrggbb`; at most 50 worn items; emote slots 1 to 8.
 * Proportions: the spec's ranges, 0 = unset (= 1.0).
 */
import { z } from "zod";
import { double, int32, list, map, message, string, timestamp } from "../wire/fields.js";

/** The spec's proportion ranges: factors on the base body, 1.0 = base; 0 = unset. */
export const PROPORTION_RANGES = {
  height: [0.8, 1.2],
  head: [0.8, 1.3],
  torso: [0.85, 1.15],
  arms: [0.85, 1.15],
  legs: [0.85, 1.15],
  shoulders: [0.8, 1.25],
  hips: [0.85, 1.2],
} as const satisfies Record<string, readonly [number, number]>;

/** Emote slots are 1 to 8. */
export const EMOTE_SLOTS = 8;
export const WORN_ITEMS_MAX = 50;
export const TINTS_MAX = 32;

const factor = ([min, max]: readonly [number, number]) =>
  double(z.number().refine((v) => v === 0 || (v >= min && v <= max), { error: `0 (unset) or ${min} to ${max}` }));

export const Proportions = message("Proportions", {
  height: factor(PROPORTION_RANGES.height),
  head: factor(PROPORTION_RANGES.head),
  torso: factor(PROPORTION_RANGES.torso),
  arms: factor(PROPORTION_RANGES.arms),
  legs: factor(PROPORTION_RANGES.legs),
  shoulders: factor(PROPORTION_RANGES.shoulders),
  hips: factor(PROPORTION_RANGES.hips),
});

export const Avatar = message("Avatar", {
  userId: string(),
  specVersion: int32(),
  body: string(),
  /** Per-part colour, `#rrggbb`. */
  tints: map(string()),
  /** In layer order. */
  wornItemIds: list(string()),
  /** Emote item ids by slot, 1 to 8. */
  emotes: map(string(), "int32"),
  updatedAt: timestamp(),
  /** The 3D base body. */
  base: string(),
  proportions: Proportions,
});

/** Empty `userId`: the caller's avatar. */
export const GetAvatarRequest = message("GetAvatarRequest", {
  userId: string(z.string().max(64, { error: "at most 64 characters" })),
});

const name64 = () => string(z.string().max(64, { error: "at most 64 characters" }));
const itemId = () => z.string().min(1, { error: "required" }).max(64, { error: "at most 64 characters" });

const tints = () =>
  map(z.string().regex(/^#[0-9a-fA-F]{6}$/, { error: "#rrggbb" })).superRefine((value, ctx) => {
    const parts = Object.keys(value);
    if (parts.length > TINTS_MAX) ctx.addIssue({ code: "custom", message: `at most ${TINTS_MAX} parts`, input: value });
    for (const part of parts) {
      if (part.length < 1 || part.length > 32) ctx.addIssue({ code: "custom", message: "part names are 1 to 32 characters", path: [part], input: part });
    }
  });

const emotes = () =>
  map(itemId(), "int32").superRefine((value, ctx) => {
    for (const slot of Object.keys(value)) {
      const n = Number(slot);
      // "01" and "1" would be two keys for one slot: only the canonical form.
      if (!(Number.isInteger(n) && n >= 1 && n <= EMOTE_SLOTS && String(n) === slot)) ctx.addIssue({ code: "custom", message: `slots are 1 to ${EMOTE_SLOTS}`, path: [slot], input: slot });
    }
  });

/** Empty `base` keeps the current base; absent `proportions` keep the current proportions. */
export const SetAvatarRequest = message("SetAvatarRequest", {
  body: name64(),
  tints: tints(),
  wornItemIds: list(itemId()).refine((ids) => ids.length <= WORN_ITEMS_MAX, { error: `at most ${WORN_ITEMS_MAX} items` }),
  emotes: emotes(),
  base: name64(),
  proportions: Proportions.optional(),
});
