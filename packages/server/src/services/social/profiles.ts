import {
  bioProblem, displayNameProblem, fail, normalizeName, normalizeQuery, relationshipOf, tables, usernameKey,
  type MethodOutput, type SocialService, type Tx, type UserRow,
} from "@playfield/core";
import type { ServiceImpl } from "../../rpc/router.js";
import { iso, requireUser, saveUser, userSummary } from "../identity/accounts.js";
import { optionalViewerId, visibleUser } from "./access.js";
import { isFollowing, pairFacts } from "./graph.js";
import { indexNames } from "./name-search.js";
import { searchUsers, userSubject } from "./user-search.js";

/* SocialService: profiles and user search. */

type Profile = MethodOutput<typeof SocialService.methods.getProfile>;

/** SearchUsers' default and SearchGroups' too. */
export const SEARCH_DEFAULT_LIMIT = 20;

/** A user's profile as `viewer` sees it. */
export async function profileOf(tx: Tx, user: UserRow, viewer: string | null): Promise<Profile> {
  const [profile, friendCount, followerCount, followingCount] = await Promise.all([
    tx.get(tables.profiles, user.id),
    tx.count(tables.friendEdges, "byUser", { equals: [user.id] }),
    tx.count(tables.follows, "byFollowee", { equals: [user.id] }),
    tx.count(tables.follows, "byFollower", { equals: [user.id] }),
  ]);
  const self = viewer === user.id;
  const facts = viewer && !self ? await pairFacts(tx, viewer, user.id) : { friends: false, sent: false, received: false };
  return {
    user: userSummary(user),
    bio: profile?.bio ?? "",
    friendCount,
    followerCount,
    followingCount,
    relationship: viewer === null ? "none" : relationshipOf(facts, self),
    following: viewer !== null && !self && (await isFollowing(tx, viewer, user.id)),
    createdAt: iso(user.createdAt),
  };
}

/** A user by id, or by username (any case). */
async function findUser(tx: Tx, idOrName: string): Promise<UserRow | undefined> {
  const byId = await tx.get(tables.users, idOrName);
  if (byId) return byId;
  const [byName] = await tx.query(tables.users, "byUsername", { equals: [usernameKey(idOrName)], limit: 1 });
  return byName;
}

export const profileMethods: ServiceImpl<typeof SocialService> = {
  async getProfile(req, ctx) {
    const key = req.userId || req.username;
    if (!key) throw fail.invalid("userId: give a user id or a username");
    const viewer = ctx.viewerId;
    return ctx.deps.storage.transact(async (tx) => {
      const field = req.userId ? "userId" : "username";
      const found = await findUser(tx, key);
      const user = await visibleUser(tx, found?.id ?? "", viewer, field);
      return profileOf(tx, user, viewer);
    });
  },

  async updateProfile(req, ctx) {
    const me = ctx.user().userId;
    const displayName = normalizeName(req.displayName);
    if (req.displayName !== "") {
      const problem = displayNameProblem(displayName);
      if (problem) throw fail.invalid(`displayName: ${problem}`);
    }
    const bio = req.bio.trim();
    const problem = bioProblem(bio);
    if (problem) throw fail.invalid(`bio: ${problem}`);
    const { deps } = ctx;
    return deps.storage.transact(async (tx) => {
      const now = deps.clock.now();
      let user = await requireUser(tx, me);
      if (req.displayName !== "" && displayName !== user.displayName) {
        user = { ...user, displayName };
        await saveUser(tx, user);
      }
      // Proto3 cannot tell an absent bio from an empty one: "" keeps it, whitespace alone clears it.
      if (req.bio !== "") await tx.put(tables.profiles, { userId: me, bio, updatedAt: now });
      return profileOf(tx, user, me);
    });
  },

  async searchUsers(req, ctx) {
    const query = normalizeQuery(req.query);
    if (!query) throw fail.invalid("query: required");
    const viewer = await optionalViewerId(ctx);
    const limit = req.limit || SEARCH_DEFAULT_LIMIT;
    const users = await ctx.deps.storage.transact((tx) => searchUsers(tx, query, limit, viewer));
    return { users: users.map(userSummary) };
  },
};
