import {
  fail, groupNameProblem, mayLeaveGroup, MEMBER_RANK, normalizeName, normalizeQuery, OWNER_RANK, roleOfRank, tables,
  type GroupRow, type MethodOutput, type SocialService, type Tx,
} from "@playfield/core";
import type { ServiceImpl } from "../../rpc/router.js";
import { iso, requireUser, userSummary } from "../identity/accounts.js";
import { indexNames, searchNames, unindexNames, type SearchSubject } from "./name-search.js";
import { SEARCH_DEFAULT_LIMIT } from "./profiles.js";

/* SocialService: groups, their members, ranks and roles (domain/group-roles.ts). */

type Group = MethodOutput<typeof SocialService.methods.getGroup>;

/** Groups one user may belong to. */
export const GROUPS_PER_USER_MAX = 100;
/** Members ListGroupMembers answers at most (highest rank first). */
export const GROUP_MEMBERS_LIST_MAX = 500;

const groupSubject = (group: GroupRow): SearchSubject => ({ kind: "g", id: group.id, nameKey: group.nameKey, otherNames: [] });

async function rankIn(tx: Tx, groupId: string, userId: string): Promise<number> {
  return (await tx.get(tables.groupMembers, `${groupId}:${userId}`))?.rank ?? 0;
}

/** Groups as `viewer` sees them, in their order: owners and the viewer's ranks read once for all. */
async function groupViews(tx: Tx, groups: readonly GroupRow[], viewer: string | null): Promise<Group[]> {
  const [owners, memberships] = await Promise.all([
    tx.getMany(tables.users, groups.map((group) => group.ownerId)),
    viewer === null ? [] : tx.getMany(tables.groupMembers, groups.map((group) => `${group.id}:${viewer}`)),
  ]);
  return groups.map((group, i) => {
    const owner = owners[i];
    return {
      id: group.id,
      name: group.name,
      description: group.description,
      owner: owner ? userSummary(owner) : { id: group.ownerId, username: "", displayName: "", headshotUrl: "" },
      memberCount: group.memberCount,
      myRank: memberships[i]?.rank ?? 0,
    };
  });
}

/** A group as `viewer` sees it. */
async function groupView(tx: Tx, group: GroupRow, viewer: string | null): Promise<Group> {
  return (await groupViews(tx, [group], viewer))[0]!;
}

async function requireGroup(tx: Tx, groupId: string): Promise<GroupRow> {
  const group = await tx.get(tables.groups, groupId);
  if (!group) throw fail.notFound("groupId: no such group");
  return group;
}

async function checkRoomForGroup(tx: Tx, userId: string): Promise<void> {
  if ((await tx.count(tables.groupMembers, "byUser", { equals: [userId] })) >= GROUPS_PER_USER_MAX) {
    throw fail.precondition(`groupId: you are in ${GROUPS_PER_USER_MAX} groups, the most one may join`);
  }
}

export const groupMethods: ServiceImpl<typeof SocialService> = {
  async createGroup(req, ctx) {
    const me = ctx.user().userId;
    const name = normalizeName(req.name);
    const problem = groupNameProblem(name);
    if (problem) throw fail.invalid(`name: ${problem}`);
    const description = req.description.trim();
    const { deps } = ctx;
    return deps.storage.transact(async (tx) => {
      await requireUser(tx, me);
      const nameKey = normalizeQuery(name);
      const [taken] = await tx.query(tables.groups, "byNameKey", { equals: [nameKey], limit: 1 });
      if (taken) throw fail.exists("name: a group with this name exists");
      await checkRoomForGroup(tx, me);
      const now = deps.clock.now();
      const group: GroupRow = { id: deps.ids.id("grp"), name, nameKey, description, ownerId: me, memberCount: 1, createdAt: now };
      await tx.put(tables.groups, group);
      await tx.put(tables.groupMembers, { id: `${group.id}:${me}`, groupId: group.id, userId: me, rank: OWNER_RANK, joinedAt: now });
      await indexNames(tx, groupSubject(group));
      return groupView(tx, group, me);
    });
  },

  async joinGroup(req, ctx) {
    const me = ctx.user().userId;
    const { deps } = ctx;
    return deps.storage.transact(async (tx) => {
      let group = await requireGroup(tx, req.groupId);
      if ((await rankIn(tx, group.id, me)) === 0) {
        await checkRoomForGroup(tx, me);
        await tx.put(tables.groupMembers, { id: `${group.id}:${me}`, groupId: group.id, userId: me, rank: MEMBER_RANK, joinedAt: deps.clock.now() });
        group = { ...group, memberCount: group.memberCount + 1 };
        await tx.put(tables.groups, group);
      }
      return groupView(tx, group, me);
    });
  },

  async leaveGroup(req, ctx) {
    const me = ctx.user().userId;
    return ctx.deps.storage.transact(async (tx) => {
      let group = await requireGroup(tx, req.groupId);
      const rank = await rankIn(tx, group.id, me);
      if (rank === 0) return groupView(tx, group, me);
      if (!mayLeaveGroup(rank, group.memberCount)) throw fail.precondition("groupId: the owner cannot leave while other members remain");
      await tx.delete(tables.groupMembers, `${group.id}:${me}`);
      group = { ...group, memberCount: group.memberCount - 1 };
      if (group.memberCount === 0) {
        // The owner left an empty group: it is gone, and its name is free again.
        await tx.delete(tables.groups, group.id);
        await unindexNames(tx, "g", group.id);
      } else {
        await tx.put(tables.groups, group);
      }
      return groupView(tx, group, me);
    });
  },

  async getGroup(req, ctx) {
    const viewer = ctx.viewerId;
    return ctx.deps.storage.transact(async (tx) => groupView(tx, await requireGroup(tx, req.groupId), viewer));
  },

  async listMyGroups(_req, ctx) {
    const me = ctx.user().userId;
    return ctx.deps.storage.transact(async (tx) => {
      const memberships = await tx.query(tables.groupMembers, "byUser", { equals: [me], limit: GROUPS_PER_USER_MAX });
      const groups = (await tx.getMany(tables.groups, memberships.map((member) => member.groupId))).filter((group) => group !== undefined);
      return { groups: await groupViews(tx, groups, me) };
    });
  },

  async searchGroups(req, ctx) {
    const query = normalizeQuery(req.query);
    if (!query) throw fail.invalid("query: required");
    const viewer = ctx.viewerId;
    const limit = req.limit || SEARCH_DEFAULT_LIMIT;
    return ctx.deps.storage.transact(async (tx) => {
      const found = await searchNames(tx, {
        kind: "g",
        table: tables.groups,
        nameIndex: "byNameKey",
        nameKeyOf: (row) => row.nameKey,
        subjectOf: groupSubject,
        loadMany: async (ids) => (await tx.getMany(tables.groups, ids)).map((group) => group ?? null),
      }, query, limit);
      return { groups: await groupViews(tx, found, viewer) };
    });
  },

  async listGroupMembers(req, ctx) {
    return ctx.deps.storage.transact(async (tx) => {
      const group = await requireGroup(tx, req.groupId);
      const rows = await tx.query(tables.groupMembers, "byGroup", { equals: [group.id], limit: GROUP_MEMBERS_LIST_MAX });
      const users = await tx.getMany(tables.users, rows.map((member) => member.userId));
      const members = rows.flatMap((member, i) => {
        const user = users[i];
        return user ? [{ user: userSummary(user), rank: member.rank, role: roleOfRank(member.rank) ?? "", joinedAt: iso(member.joinedAt) }] : [];
      });
      return { members };
    });
  },
};
