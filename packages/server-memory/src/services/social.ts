import type { SocialService } from "@playfield/core";
import type { ServiceImpl } from "../router.js";
import { blockMethods } from "./social-blocks.js";
import { friendMethods } from "./social-friends.js";
import { groupMethods } from "./social-groups.js";
import { profileMethods } from "./social-profiles.js";

/** SocialService: profiles and search, friends and follows, groups, blocking (docs/social.md). */
export const socialService: ServiceImpl<typeof SocialService> = {
  ...profileMethods,
  ...friendMethods,
  ...groupMethods,
  ...blockMethods,
};
