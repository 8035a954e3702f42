import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dmKey, PlayfieldError, tables, type ExperienceRow, type GameSessionRow, type ItemKind } from "@playfield/core";
import type { PlayfieldClient } from "@playfield/client";
import { testServer, TRANSPORTS, type TestServer } from "./fixtures.js";
import { topUp } from "./economy-fixtures.js";
import { connect, presenceAbout, type Connection, type Message } from "./presence-fixtures.js";
import { propertyRuns } from "./property-runs.js";
import { LIST_SCAN_MAX } from "../src/services/economy/config.js";
import { addExperience, befriend, player, type Player } from "./session-world.js";

/*
 * What a caller cannot see does not exist for it (docs/catalog.md, "Who sees
 * an experience"): on every surface that names a draft or private experience,
 * or a thing of one, the answer for a caller who may not see it is exactly the
 * answer for a random unknown id (the same result, or the same code and
 * message). Each case is a new creator, experience and callers on one server.
 */

const runs = propertyRuns("PLAYFIELD_VISIBILITY_RUNS", { memory: 12, database: 3 });
const kind = TRANSPORTS[0]!;

/** What a call answered: its result, or its error's code and message. */
type Outcome = { ok: unknown } | { code: string; message: string };

async function outcome(call: Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: await call };
  } catch (error) {
    if (!(error instanceof PlayfieldError)) throw error;
    return { code: error.code, message: error.rawMessage };
  }
}

/** The same answer for the hidden id and the unknown one, which must be a refusal or nothing (never a pass). */
async function sameAsUnknown(hidden: Promise<unknown>, unknown: Promise<unknown>): Promise<void> {
  const [seen, none] = await Promise.all([outcome(hidden), outcome(unknown)]);
  expect(seen).toEqual(none);
}

const hiddenArb = fc.constantFrom("draft", "private") as fc.Arbitrary<"draft" | "private">;
/** The tail of an id nothing has: ids the server makes are longer, or have other letters. */
const unknownArb = fc.stringMatching(/^[a-z0-9]{1,16}$/).map((tail) => `zz${tail}`);
/** Who asks: no one signed in, a stranger, or a tester who was removed. */
const callerArb = fc.constantFrom("anonymous", "stranger", "former_tester");

interface World {
  creator: Player;
  hidden: ExperienceRow;
}

/** A creator with a draft or private experience, published so that its testers can join it. */
async function world(t: TestServer, visibility: "draft" | "private"): Promise<World> {
  const creator = await player(t);
  const { experience } = await addExperience(t.server, { creatorId: creator.userId, visibility });
  return { creator, hidden: experience };
}

async function caller(t: TestServer, w: World, who: string): Promise<{ client: PlayfieldClient; userId: string | null }> {
  if (who === "anonymous") return { client: t.client(), userId: null };
  const p = await player(t);
  if (who === "former_tester") {
    await w.creator.client.catalog.addTester({ experienceId: w.hidden.id, userId: p.userId });
    await w.creator.client.catalog.removeTester({ experienceId: w.hidden.id, userId: p.userId });
  }
  return { client: p.client, userId: p.userId };
}

async function gameSession(t: TestServer, id: string, experienceId: string): Promise<void> {
  const now = t.server.clock.now();
  const row = { id, experienceId, placeVersionId: "ver_1", hostingTier: "edge", maxPlayers: 10, hostUserId: null, memberCount: 1, createdAt: now, closedAt: null } as unknown as GameSessionRow;
  await t.server.deps.storage.transact((tx) => tx.put(tables.gameSessions, row));
}

let messages = 0;

/** A stored chat message of `senderId` in a conversation. */
async function message(t: TestServer, conversationKey: string, senderId: string): Promise<string> {
  const id = `msg_vis${++messages}`;
  await t.server.deps.storage.transact((tx) => tx.put(tables.chatMessages, {
    id, conversationKey, pos: 1, senderId, clientMessageId: id, text: "rude", childText: "rude", createdAt: t.server.clock.now(),
  }));
  return id;
}

describe("a hidden experience answers as an unknown id", () => {
  it("should list, get and sell a hidden experience's items as an unknown experience's and unknown items", async () => {
    await using t = await testServer(kind);
    await fc.assert(fc.asyncProperty(
      hiddenArb, callerArb, fc.constantFrom<ItemKind>("game_pass", "developer_product"), fc.constantFrom("", "game_pass", "developer_product"),
      fc.nat({ max: 5 }), unknownArb,
      async (visibility, who, itemKind, listKind, limit, unknown) => {
        const w = await world(t, visibility);
        const pass = await w.creator.client.economy.createItem({ kind: itemKind, name: "VIP", description: "", price: 10, experienceId: w.hidden.id });
        const { client, userId } = await caller(t, w, who);
        const economy = client.economy;
        await sameAsUnknown(
          economy.listItems({ experienceId: w.hidden.id, kind: listKind, limit }),
          economy.listItems({ experienceId: `exp_${unknown}`, kind: listKind, limit }),
        );
        // Listed without an experience, the item is not there either.
        const listed = await economy.listItems({ kind: listKind, limit: 0 });
        expect(listed.items.map((item) => item.id)).not.toContain(pass.id);
        await sameAsUnknown(economy.getItem({ itemId: pass.id }), economy.getItem({ itemId: `itm_${unknown}` }));
        if (userId === null) return;
        await sameAsUnknown(
          economy.buyItem({ itemId: pass.id, expectedPrice: pass.price, soldInExperienceId: "", requestId: "" }),
          economy.buyItem({ itemId: `itm_${unknown}`, expectedPrice: pass.price, soldInExperienceId: "", requestId: "" }),
        );
        // An item on sale everywhere, "sold in" the hidden experience: as if sold in an unknown one.
        const seller = await player(t);
        const hat = await seller.client.economy.createItem({ kind: "avatar_hat", name: "Hat", description: "", price: 5, experienceId: "" });
        await sameAsUnknown(
          economy.buyItem({ itemId: hat.id, expectedPrice: hat.price, soldInExperienceId: w.hidden.id, requestId: "" }),
          economy.buyItem({ itemId: hat.id, expectedPrice: hat.price, soldInExperienceId: `exp_${unknown}`, requestId: "" }),
        );
      },
    ), runs);
  });

  it("should refuse reports naming a hidden experience, its session or a message of another conversation as unknown ones", async () => {
    await using t = await testServer(kind);
    await fc.assert(fc.asyncProperty(
      hiddenArb, fc.constantFrom("stranger", "former_tester"), fc.constantFrom("dm", "group", "session"), unknownArb,
      async (visibility, who, conversation, unknown) => {
        const w = await world(t, visibility);
        const { client } = await caller(t, w, who);
        const other = await player(t);
        await gameSession(t, `gs_vis${w.hidden.id}`, w.hidden.id);
        const key = conversation === "dm" ? dmKey(w.creator.userId, other.userId) : conversation === "group" ? `group:grp_vis${w.hidden.id}` : `session:gs_vis${w.hidden.id}`;
        const messageId = await message(t, key, w.creator.userId);
        const safety = client.safety;
        const base = { userId: w.creator.userId, category: "harassment", details: "", experienceId: "", sessionId: "", messageId: "" };
        await sameAsUnknown(
          safety.reportExperience({ experienceId: w.hidden.id, category: "scam", details: "" }),
          safety.reportExperience({ experienceId: `exp_${unknown}`, category: "scam", details: "" }),
        );
        await sameAsUnknown(safety.reportPlayer({ ...base, experienceId: w.hidden.id }), safety.reportPlayer({ ...base, experienceId: `exp_${unknown}` }));
        await sameAsUnknown(safety.reportPlayer({ ...base, sessionId: `gs_vis${w.hidden.id}` }), safety.reportPlayer({ ...base, sessionId: `gs_${unknown}` }));
        await sameAsUnknown(safety.reportPlayer({ ...base, messageId }), safety.reportPlayer({ ...base, messageId: `msg_${unknown}` }));
      },
    ), runs);
  });

  it("should show a friend in a hidden experience as in a game of an unknown id, in ListFriends and in presence events", async () => {
    await using t = await testServer(kind, { sessions: { silenceMs: 60_000 } });
    await fc.assert(fc.asyncProperty(hiddenArb, unknownArb, async (visibility, unknown) => {
      const w = await world(t, visibility);
      // `inHidden` tests the hidden experience and joins it; `inUnknown` is a member of a session of an unknown id.
      const [inHidden, inUnknown, viewer, late] = [await player(t), await player(t), await player(t), await player(t)];
      for (const friend of [inHidden, inUnknown]) {
        for (const v of [viewer, late, w.creator]) await befriend(t.server, friend.userId, v.userId);
      }
      const links: Connection[] = [];
      try {
        links.push(await connect(t, kind, viewer.accessToken), await connect(t, kind, w.creator.accessToken));
        const [viewerLink, creatorLink] = links as [Connection, Connection];
        await w.creator.client.catalog.addTester({ experienceId: w.hidden.id, userId: inHidden.userId });
        await inHidden.client.session.join({ experienceId: w.hidden.id });
        await t.server.seed.gameToken(inUnknown, { experienceId: `exp_${unknown}`, sessionId: `gs_${unknown}` });
        // ListFriends: the same entry, but for the friend's own summary.
        const { friends } = await viewer.client.social.listFriends({});
        const entry = (id: string) => {
          const { user, ...presence } = friends.find((f) => f.user.id === id)!;
          return presence;
        };
        expect(entry(inHidden.userId)).toEqual(entry(inUnknown.userId));
        // Pushed on the join, and in the greeting of a later connection: the same event, but for the user it is about.
        await viewerLink.barrier();
        const lastAbout = (link: Connection, userId: string): Message => {
          const { userId: _about, ...event } = link.messages.filter((m) => m.type === "presence" && m.userId === userId).at(-1)!;
          return event;
        };
        links.push(await connect(t, kind, late.accessToken));
        const lateLink = links[2]!;
        expect(lastAbout(viewerLink, inHidden.userId)).toEqual(lastAbout(lateLink, inUnknown.userId));
        expect(lastAbout(lateLink, inHidden.userId)).toEqual(lastAbout(lateLink, inUnknown.userId));
        // The creator may see it: the id is there for them.
        await creatorLink.barrier();
        expect(presenceAbout(creatorLink, inHidden.userId).at(-1)).toBe(`in_game:${w.hidden.id}`);
      } finally {
        for (const link of links) await link.close();
      }
    }), runs);
  });

  it("should tell a friend in game again when the experience goes hidden or public, or the viewer becomes or stops being a tester", async () => {
    await using t = await testServer(kind, { sessions: { silenceMs: 60_000 } });
    const creator = await player(t);
    const { experience } = await addExperience(t.server, { creatorId: creator.userId, visibility: "public" });
    const [playing, viewer] = [await player(t), await player(t)];
    await befriend(t.server, playing.userId, viewer.userId);
    const link = await connect(t, kind, viewer.accessToken);
    try {
      await playing.client.session.join({ experienceId: experience.id });
      const catalog = creator.client.catalog;
      await catalog.updateExperience({ experienceId: experience.id, visibility: "private" });
      await catalog.addTester({ experienceId: experience.id, userId: viewer.userId });
      await catalog.removeTester({ experienceId: experience.id, userId: viewer.userId });
      await catalog.updateExperience({ experienceId: experience.id, visibility: "public" });
      await link.barrier();
      const named = `in_game:${experience.id}`;
      expect(presenceAbout(link, playing.userId)).toEqual([named, "in_game:undefined", named, "in_game:undefined", named]);
    } finally {
      await link.close();
    }
  });

  it("should page past a hidden experience's items to fill a listing, reading at most LIST_SCAN_MAX of them", async () => {
    await using t = await testServer(kind);
    const w = await world(t, "draft");
    const seller = await player(t);
    const hat = await seller.client.economy.createItem({ kind: "avatar_hat", name: "Hat", description: "", price: 5, experienceId: "" });
    const { seq, createdAt } = (await t.server.deps.storage.transact((tx) => tx.get(tables.items, hat.id)))!;
    /** Writes `count` listed passes of the draft, newer than the hat. */
    const passes = (from: number, count: number) => t.server.deps.storage.transact(async (tx) => {
      for (let i = from; i < from + count; i++) {
        await tx.put(tables.items, {
          id: `itm_vis_scan${i}`, kind: "game_pass", name: "Pass", description: "", price: 1, creatorId: w.creator.userId, experienceId: w.hidden.id,
          thumbnailUrl: "", listed: true, sales: 0, createdAt, updatedAt: createdAt, seq: seq + 1 + i,
        });
      }
    });
    const anonymous = t.client().economy;
    await passes(0, LIST_SCAN_MAX - 10);
    // Ten pages of 9 and more are read through: the hat, older than every pass, is found.
    expect((await anonymous.listItems({ limit: 9 })).items.map((item) => item.id)).toEqual([hat.id]);
    await passes(LIST_SCAN_MAX - 10, 10);
    // Past the bound the listing stops short.
    expect((await anonymous.listItems({ limit: 10 })).items).toEqual([]);
    expect((await w.creator.client.economy.listItems({ limit: 10 })).items).toHaveLength(10);
  });

  it("should still show a hidden experience's items to a tester and to an owner, and take a sale in it from a tester or a player", async () => {
    await using t = await testServer(kind);
    const w = await world(t, "private");
    const pass = await w.creator.client.economy.createItem({ kind: "game_pass", name: "VIP", description: "", price: 10, experienceId: w.hidden.id });
    const [tester, playing] = [await player(t), await player(t)];
    await w.creator.client.catalog.addTester({ experienceId: w.hidden.id, userId: tester.userId });
    expect((await tester.client.economy.listItems({ experienceId: w.hidden.id })).items.map((i) => i.id)).toEqual([pass.id]);
    expect((await tester.client.economy.listItems({ kind: "game_pass" })).items.map((i) => i.id)).toContain(pass.id);
    expect((await tester.client.economy.getItem({ itemId: pass.id })).experienceId).toBe(w.hidden.id);
    // A player in one of its sessions (a tester removed while playing) still buys "in" it.
    await t.server.seed.gameToken(playing, { experienceId: w.hidden.id });
    const seller = await player(t);
    const hat = await seller.client.economy.createItem({ kind: "avatar_hat", name: "Hat", description: "", price: 5, experienceId: "" });
    for (const buyer of [tester, playing]) {
      await topUp(t, buyer.client);
      const bought = await buyer.client.economy.buyItem({ itemId: hat.id, expectedPrice: hat.price, soldInExperienceId: w.hidden.id, requestId: "" });
      expect(bought.item.id).toBe(hat.id);
    }
    // Bought while visible, owned after it is hidden: owners see what they own.
    await tester.client.economy.buyItem({ itemId: pass.id, expectedPrice: pass.price, soldInExperienceId: "", requestId: "" });
    await w.creator.client.catalog.removeTester({ experienceId: w.hidden.id, userId: tester.userId });
    expect((await tester.client.economy.getItem({ itemId: pass.id })).owned).toBe(true);
    expect((await tester.client.economy.listItems({ experienceId: w.hidden.id })).items).toEqual([]);
  });
});
