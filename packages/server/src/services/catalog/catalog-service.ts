import {
  budgetReportProblem, contentHashOf, contentUrlProblem, fail, placeVersionProblem, tables, usernameKey,
  type CatalogService, type ExperienceRow, type MethodRequest, type PlaceVersionRow, type Tx, type UserRow,
} from "@playfield/core";
import type { ServiceImpl } from "../../rpc/router.js";
import { userSummary } from "../identity/accounts.js";
import { announcePresence } from "../presence/feed.js";
import { friendsAmong } from "../social/graph.js";
import { ownExperience, testerId, visibleExperience } from "./access.js";
import { CATALOG_LIMITS } from "./config.js";
import { discover } from "./discovery.js";
import { syncTerms } from "./search.js";
import { uploadContent } from "./uploads.js";
import { experienceView, experienceViews, memberKey, placeVersionView } from "./views.js";

type TesterRequest = MethodRequest<typeof CatalogService.methods.addTester>;

/** Who plays the experience now (members of its sessions): their friends' view of their presence names it, or not. */
async function playersOf(tx: Tx, experienceId: string): Promise<string[]> {
  const members = await tx.query(tables.sessionMembers, "byExperience", { equals: [experienceId] });
  return [...new Set(members.map((member) => member.userId))];
}

/** The players of the experience whom a tester added or removed now sees in it, or no longer: their presence is told again. */
async function playersFriendsOf(tx: Tx, experienceId: string, userId: string): Promise<string[]> {
  const players = await playersOf(tx, experienceId);
  const friends = await friendsAmong(tx, userId, players);
  return players.filter((id) => friends.has(id));
}

/** Refuses a content URL of this server whose blob was never uploaded. Inside a transaction. */
async function checkUploaded(tx: Tx, field: string, url: string): Promise<void> {
  const sha256 = contentHashOf(url);
  if (sha256 !== null && !(await tx.get(tables.contentBlobs, sha256))) throw fail.invalid(`${field}: no uploaded content with this hash`);
}

/** Writes an experience and keeps its search terms in step. */
async function saveExperience(tx: Tx, row: ExperienceRow): Promise<void> {
  await tx.put(tables.experiences, row);
  await syncTerms(tx, row);
}

/** The user a TesterRequest names: `userId` holds a user id or a username; `username` a username. */
async function testerUser(tx: Tx, req: TesterRequest): Promise<UserRow> {
  const name = req.userId || req.username.trim();
  if (name === "") throw fail.invalid("userId: a user id or a username is required");
  let user = req.userId ? await tx.get(tables.users, req.userId) : undefined;
  if (!user) [user] = await tx.query(tables.users, "byUsername", { equals: [usernameKey(name)], limit: 1 });
  if (!user || user.deletedAt !== null) throw fail.notFound("userId: no such user");
  return user;
}

async function testerList(tx: Tx, experienceId: string) {
  const testers = [];
  for (const row of await tx.query(tables.experienceTesters, "byExperience", { equals: [experienceId] })) {
    const user = await tx.get(tables.users, row.userId);
    if (user && user.deletedAt === null) testers.push(userSummary(user));
  }
  return { testers };
}

/** CatalogService: experiences, place versions, discovery, votes, favorites, testers, content uploads. */
export const catalogService: ServiceImpl<typeof CatalogService> = {
  async createExperience(req, ctx) {
    const { deps } = ctx;
    const userId = ctx.user().userId;
    const title = req.title.trim();
    if (title === "") throw fail.invalid("title: required");
    if (req.hostingTier === "solo" && req.maxPlayers !== 1) throw fail.invalid("maxPlayers: 1 for the solo tier");
    if (req.hostingTier === "peer" && req.maxPlayers > CATALOG_LIMITS.peerMaxPlayers) {
      throw fail.invalid(`maxPlayers: at most ${CATALOG_LIMITS.peerMaxPlayers} for the peer tier`);
    }
    return deps.storage.transact(async (tx) => {
      const now = deps.clock.now();
      const row: ExperienceRow = {
        id: deps.ids.id("exp"),
        creatorId: userId,
        title,
        description: req.description.trim(),
        genre: req.genre.trim(),
        thumbnailUrl: "",
        visibility: "draft",
        hostingTier: req.hostingTier as ExperienceRow["hostingTier"],
        maxPlayers: req.maxPlayers,
        startPlaceId: deps.ids.id("plc"),
        liveVersionId: null,
        createdAt: now,
        updatedAt: now,
        visits: 0,
        favorites: 0,
        upVotes: 0,
        downVotes: 0,
      };
      await saveExperience(tx, row);
      return experienceView(tx, row, userId);
    });
  },

  async updateExperience(req, ctx) {
    const { deps } = ctx;
    const userId = ctx.user().userId;
    const title = req.title.trim();
    if (req.title !== "" && title === "") throw fail.invalid("title: must not be blank");
    if (req.thumbnailUrl !== "") {
      const problem = contentUrlProblem("thumbnailUrl", req.thumbnailUrl);
      if (problem) throw fail.invalid(problem);
    }
    const { view, players } = await deps.storage.transact(async (tx) => {
      const current = await ownExperience(tx, req.experienceId, userId, "update it");
      if (req.thumbnailUrl !== "") await checkUploaded(tx, "thumbnailUrl", req.thumbnailUrl);
      const visibility = (req.visibility || current.visibility) as ExperienceRow["visibility"];
      if (visibility === "public" && current.liveVersionId === null) {
        throw fail.precondition("visibility: publish a version that passes its checks before going public");
      }
      const row: ExperienceRow = {
        ...current,
        title: title || current.title,
        description: req.description.trim() || current.description,
        thumbnailUrl: req.thumbnailUrl || current.thumbnailUrl,
        visibility,
        updatedAt: deps.clock.now(),
      };
      await saveExperience(tx, row);
      // Going public or hidden changes what the players' friends may see of where they are.
      const seenByAll = (current.visibility === "public") !== (visibility === "public");
      return { view: await experienceView(tx, row, userId), players: seenByAll ? await playersOf(tx, row.id) : [] };
    });
    if (players.length > 0) await announcePresence(deps, players);
    return view;
  },

  async publishVersion(req, ctx) {
    const { deps } = ctx;
    const userId = ctx.user().userId;
    const problem = placeVersionProblem(req.contentUrls, req.engineMin);
    if (problem) throw fail.invalid(problem);
    // The Studio's report is checked again here; a version that fails is kept, rejected, and never live.
    const rejectReason = req.budgetReportJson.trim() === "" ? null : budgetReportProblem(req.budgetReportJson, Object.keys(req.contentUrls));
    return deps.storage.transact(async (tx) => {
      const experience = await ownExperience(tx, req.experienceId, userId, "publish versions");
      for (const [target, url] of Object.entries(req.contentUrls)) await checkUploaded(tx, `contentUrls.${target}`, url);
      const [last] = await tx.query(tables.placeVersions, "byExperience", { equals: [experience.id], order: "desc", limit: 1 });
      const now = deps.clock.now();
      const version: PlaceVersionRow = {
        id: deps.ids.id("ver"),
        experienceId: experience.id,
        placeId: experience.startPlaceId,
        number: (last?.number ?? 0) + 1,
        contentUrls: { ...req.contentUrls },
        engineMin: { ...req.engineMin },
        status: rejectReason === null ? "live" : "rejected",
        rejectReason: rejectReason ?? "",
        notes: req.notes,
        createdAt: now,
      };
      await tx.put(tables.placeVersions, version);
      if (version.status === "live") await saveExperience(tx, { ...experience, liveVersionId: version.id, updatedAt: now });
      return placeVersionView(version);
    });
  },

  async listVersions(req, ctx) {
    const { deps } = ctx;
    const userId = ctx.user().userId;
    return deps.storage.transact(async (tx) => {
      const experience = await ownExperience(tx, req.experienceId, userId, "list its versions");
      const rows = await tx.query(tables.placeVersions, "byExperience", {
        equals: [experience.id],
        ...(req.beforeNumber > 0 ? { range: { lt: req.beforeNumber } } : {}),
        order: "desc",
        limit: req.limit || CATALOG_LIMITS.listVersionsDefault,
      });
      return { versions: rows.map(placeVersionView), liveVersionId: experience.liveVersionId ?? "" };
    });
  },

  async setLiveVersion(req, ctx) {
    const { deps } = ctx;
    const userId = ctx.user().userId;
    return deps.storage.transact(async (tx) => {
      const experience = await ownExperience(tx, req.experienceId, userId, "set its live version");
      const version = await tx.get(tables.placeVersions, req.versionId);
      if (!version || version.experienceId !== experience.id) throw fail.notFound("versionId: no such version of this experience");
      if (version.status !== "live") throw fail.precondition(`versionId: a ${version.status} version cannot be the live version`);
      // Only the pointer moves: running sessions keep the version they started with.
      const row: ExperienceRow = { ...experience, liveVersionId: version.id, updatedAt: deps.clock.now() };
      await saveExperience(tx, row);
      return experienceView(tx, row, userId);
    });
  },

  async getExperience(req, ctx) {
    const viewerId = ctx.viewerId;
    return ctx.deps.storage.transact(async (tx) => experienceView(tx, await visibleExperience(tx, req.experienceId, viewerId), viewerId));
  },

  async listExperiences(req, ctx) {
    const { deps } = ctx;
    const viewerId = ctx.viewerId;
    return deps.storage.transact(async (tx) => {
      const rows = await discover(tx, req, viewerId, deps.clock.now(), req.limit || CATALOG_LIMITS.listExperiencesDefault);
      return { experiences: await experienceViews(tx, rows, viewerId) };
    });
  },

  async listMyExperiences(_req, ctx) {
    const userId = ctx.user().userId;
    return ctx.deps.storage.transact(async (tx) => {
      const rows = await tx.query(tables.experiences, "byCreator", { equals: [userId], order: "desc" });
      return { experiences: await experienceViews(tx, rows, userId) };
    });
  },

  async favorite(req, ctx) {
    const { deps } = ctx;
    const userId = ctx.user().userId;
    return deps.storage.transact(async (tx) => {
      const experience = await visibleExperience(tx, req.experienceId, userId);
      const id = memberKey(experience.id, userId);
      const had = (await tx.get(tables.experienceFavorites, id)) !== undefined;
      if (had === req.favorite) return { favorited: had, favorites: experience.favorites };
      if (req.favorite) await tx.put(tables.experienceFavorites, { id, experienceId: experience.id, userId, createdAt: deps.clock.now() });
      else await tx.delete(tables.experienceFavorites, id);
      const favorites = Math.max(0, experience.favorites + (req.favorite ? 1 : -1));
      await tx.put(tables.experiences, { ...experience, favorites });
      return { favorited: req.favorite, favorites };
    });
  },

  async vote(req, ctx) {
    const { deps } = ctx;
    const userId = ctx.user().userId;
    return deps.storage.transact(async (tx) => {
      const experience = await visibleExperience(tx, req.experienceId, userId);
      const id = memberKey(experience.id, userId);
      const before = (await tx.get(tables.experienceVotes, id))?.vote ?? 0;
      const vote = req.vote as -1 | 0 | 1;
      if (before === vote) return { upVotes: experience.upVotes, downVotes: experience.downVotes, myVote: vote };
      if (vote === 0) await tx.delete(tables.experienceVotes, id);
      else await tx.put(tables.experienceVotes, { id, experienceId: experience.id, userId, vote, createdAt: deps.clock.now() });
      const upVotes = Math.max(0, experience.upVotes - (before === 1 ? 1 : 0) + (vote === 1 ? 1 : 0));
      const downVotes = Math.max(0, experience.downVotes - (before === -1 ? 1 : 0) + (vote === -1 ? 1 : 0));
      await tx.put(tables.experiences, { ...experience, upVotes, downVotes });
      return { upVotes, downVotes, myVote: vote };
    });
  },

  uploadContent,

  async addTester(req, ctx) {
    const { deps } = ctx;
    const userId = ctx.user().userId;
    const { list, players } = await deps.storage.transact(async (tx) => {
      const experience = await ownExperience(tx, req.experienceId, userId, "add testers");
      const tester = await testerUser(tx, req);
      if (tester.id === experience.creatorId) throw fail.invalid("userId: the creator always sees the experience; add someone else");
      const id = testerId(experience.id, tester.id);
      if (!(await tx.get(tables.experienceTesters, id))) {
        if ((await tx.count(tables.experienceTesters, "byExperience", { equals: [experience.id] })) >= CATALOG_LIMITS.testersMax) {
          throw fail.exhausted(`userId: at most ${CATALOG_LIMITS.testersMax} testers per experience`);
        }
        await tx.put(tables.experienceTesters, { id, experienceId: experience.id, userId: tester.id, addedAt: deps.clock.now() });
      }
      const players = experience.visibility === "public" ? [] : await playersFriendsOf(tx, experience.id, tester.id);
      return { list: await testerList(tx, experience.id), players };
    });
    if (players.length > 0) await announcePresence(deps, players);
    return list;
  },

  async removeTester(req, ctx) {
    const { deps } = ctx;
    const userId = ctx.user().userId;
    const { list, players } = await deps.storage.transact(async (tx) => {
      const experience = await ownExperience(tx, req.experienceId, userId, "remove testers");
      const tester = await testerUser(tx, req);
      await tx.delete(tables.experienceTesters, testerId(experience.id, tester.id));
      const players = experience.visibility === "public" ? [] : await playersFriendsOf(tx, experience.id, tester.id);
      return { list: await testerList(tx, experience.id), players };
    });
    if (players.length > 0) await announcePresence(deps, players);
    return list;
  },

  async listTesters(req, ctx) {
    const userId = ctx.user().userId;
    return ctx.deps.storage.transact(async (tx) => testerList(tx, (await ownExperience(tx, req.experienceId, userId, "list its testers")).id));
  },
};
