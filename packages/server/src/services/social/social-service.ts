import type { SocialService } from "@playfield/core";
import type { ServiceImpl } from "../../rpc/router.js";
import { blockMethods } from "./blocks.js";
import { friendMethods } from "./friends.js";
import { groupMethods } from "./groups.js";
import { profileMethods } from "./profiles.js";

/** SocialService: profiles and search, friends and follows, groups, blocking (docs/social.md). */
export const socialService: ServiceImpl<typeof SocialService> = {
  ...profileMethods,
  ...friendMethods,
  ...groupMethods,
  ...blockMethods,
};
