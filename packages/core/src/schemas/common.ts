import { z } from "zod";
import { bool, int32, int64, message, string } from "../wire/fields.js";

/** Item kinds the catalog sells. */
export const ITEM_KINDS = ["avatar_hat", "avatar_shirt", "avatar_emote", "game_pass", "developer_product"] as const;

export const Item = message("Item", {
  id: string(),
  kind: string(),
  name: string(),
  description: string(),
  price: int64(),
  creatorId: string(),
  creatorName: string(),
  experienceId: string(),
  thumbnailUrl: string(),
  owned: bool(),
  sales: int64(),
});

export const PageRequest = message("PageRequest", {
  pageSize: int32(),
  pageToken: string(),
});

/** A user as others see them. */
export const UserSummary = message("UserSummary", {
  id: string(),
  username: string(),
  displayName: string(),
  headshotUrl: string(),
});

/** An empty message (`{}`), named for the request or response it stands for. */
export const empty = (name: string) => message(name, {});

/** A `limit` field: 0 means the method's default, and it may not exceed `max`. */
export const limit = (max: number) => int32(z.int32().min(0, { error: "must not be negative" }).max(max, { error: `at most ${max}` }));
