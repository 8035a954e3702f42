import {
  AVATAR_SPEC_VERSION, avatarProblem, DEFAULT_AVATAR, fail, referencedItemIds, tables,
  type AvatarRow, type AvatarService, type MethodOutput,
} from "@playfield/core";
import type { ServiceImpl } from "../../rpc/router.js";
import { iso, requireUser, saveUser } from "../identity/accounts.js";
import { ownedItemKinds } from "./ownership.js";
import { visibleUser } from "../social/access.js";

/* AvatarService: reading and saving the avatar (docs/avatar.md). */

type Avatar = MethodOutput<typeof AvatarService.methods.getAvatar>;

/** The avatar of a user who never saved one. */
export function defaultAvatar(userId: string, createdAt: number): AvatarRow {
  return {
    userId,
    specVersion: AVATAR_SPEC_VERSION,
    body: DEFAULT_AVATAR.body,
    tints: { ...DEFAULT_AVATAR.tints },
    wornItemIds: [],
    emotes: {},
    base: DEFAULT_AVATAR.base,
    proportions: { ...DEFAULT_AVATAR.proportions },
    version: 0,
    updatedAt: createdAt,
  };
}

export function avatarView(row: AvatarRow): Avatar {
  const p = row.proportions;
  return {
    userId: row.userId,
    specVersion: row.specVersion,
    body: row.body,
    tints: row.tints,
    wornItemIds: row.wornItemIds,
    emotes: row.emotes,
    updatedAt: iso(row.updatedAt),
    base: row.base,
    proportions: {
      height: p.height ?? 0, head: p.head ?? 0, torso: p.torso ?? 0, arms: p.arms ?? 0,
      legs: p.legs ?? 0, shoulders: p.shoulders ?? 0, hips: p.hips ?? 0,
    },
  };
}

export const avatarService: ServiceImpl<typeof AvatarService> = {
  async getAvatar(req, ctx) {
    const me = ctx.user().userId;
    return ctx.deps.storage.transact(async (tx) => {
      const user = await visibleUser(tx, req.userId || me, me);
      return avatarView((await tx.get(tables.avatars, user.id)) ?? defaultAvatar(user.id, user.createdAt));
    });
  },

  async setAvatar(req, ctx) {
    const me = ctx.user().userId;
    const { deps } = ctx;
    return deps.storage.transact(async (tx) => {
      const user = await requireUser(tx, me);
      const owned = await ownedItemKinds(tx, me, referencedItemIds(req));
      const problem = avatarProblem(req, owned);
      if (problem) throw fail.invalid(problem);
      const current = (await tx.get(tables.avatars, me)) ?? defaultAvatar(me, user.createdAt);
      const version = Math.max(current.version, user.avatarVersion ?? 0) + 1;
      const next: AvatarRow = {
        userId: me,
        specVersion: AVATAR_SPEC_VERSION,
        body: req.body || DEFAULT_AVATAR.body,
        tints: req.tints,
        wornItemIds: [...req.wornItemIds],
        emotes: req.emotes,
        base: req.base || current.base,
        proportions: req.proportions ? { ...req.proportions } : current.proportions,
        version,
        updatedAt: deps.clock.now(),
      };
      await tx.put(tables.avatars, next);
      // The version on the user row is what every UserSummary's headshotUrl carries.
      await saveUser(tx, { ...user, avatarVersion: version });
      return avatarView(next);
    });
  },
};
