import { describe, expect, it } from "vitest";
import { Code, tables, type ItemKind } from "@playfield/core";
import { expectError, testServer, TRANSPORTS, type TestServer } from "./fixtures.js";
import { member, type Member } from "./social-fixtures.js";

/** Gives a user an item of a kind, as a purchase does (EconomyService's ownership row). */
async function own(t: TestServer, who: Member, itemId: string, kind: ItemKind): Promise<void> {
  await t.server.deps.storage.transact((tx) => tx.put(tables.ownership, {
    id: `${who.user.userId}:${itemId}`, userId: who.user.userId, itemId, kind, acquiredAt: t.server.clock.now(), seq: 1,
  }));
}

const look = { body: "slim", tints: { head: "#aabbcc", torso: "#112233" }, base: "rig_a", proportions: { height: 1.1, head: 0, torso: 1, arms: 1, legs: 1, shoulders: 1.2, hips: 0.9 } };

describe.each(TRANSPORTS)("AvatarService (%s)", (kind) => {
  describe("getAvatar", () => {
    it("should answer the default avatar before any save, for the caller and for others, guests included", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const guest = await member(t, { guest: true });
      const mine = await ada.client.avatar.getAvatar({});
      expect(mine).toMatchObject({ userId: ada.user.userId, specVersion: 1, body: "standard", base: "standard", wornItemIds: [] });
      expect(mine.tints.head).toMatch(/^#[0-9a-f]{6}$/);
      expect((await guest.client.avatar.getAvatar({ userId: ada.user.userId })).userId).toBe(ada.user.userId);
      await expectError(ada.client.avatar.getAvatar({ userId: "usr_nope" }), Code.NotFound, /^userId: no such user/);
    });

    it("should be reachable with an avatar scoped token", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const token = await t.server.seed.scopedToken(ada.user, "avatar");
      const saved = await t.client().avatar.setAvatar(look, { token });
      expect(saved.body).toBe("slim");
      expect((await t.client().avatar.getAvatar({}, { token })).base).toBe("rig_a");
    });
  });

  describe("setAvatar", () => {
    it("should save tints, owned worn items in layer order, owned emotes by slot and proportions", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      await own(t, ada, "itm_hat", "avatar_hat");
      await own(t, ada, "itm_shirt", "avatar_shirt");
      await own(t, ada, "itm_wave", "avatar_emote");
      t.server.clock.advance(5_000);
      const start = t.server.clock.now();
      const saved = await ada.client.avatar.setAvatar({ ...look, wornItemIds: ["itm_shirt", "itm_hat"], emotes: { 3: "itm_wave" } });
      expect(saved.wornItemIds).toEqual(["itm_shirt", "itm_hat"]);
      expect(saved.emotes).toEqual({ 3: "itm_wave" });
      expect(saved.proportions).toMatchObject({ height: 1.1, shoulders: 1.2, hips: 0.9 });
      expect(Date.parse(saved.updatedAt)).toBeGreaterThanOrEqual(start);
      expect(Date.parse(saved.updatedAt)).toBeLessThanOrEqual(t.server.clock.now());
      expect(await ada.client.avatar.getAvatar({})).toEqual(saved);
    });

    it("should keep the base when empty and the proportions when absent", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      await ada.client.avatar.setAvatar(look);
      const next = await ada.client.avatar.setAvatar({ body: "wide", tints: {} });
      expect(next.base).toBe("rig_a");
      expect(next.proportions.height).toBe(1.1);
      expect(next.body).toBe("wide");
      const reset = await ada.client.avatar.setAvatar({ proportions: {} });
      expect(reset.proportions.height).toBe(0);
    });

    it("should name the field of each violation and save nothing", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const other = await member(t);
      await own(t, ada, "itm_wave", "avatar_emote");
      await own(t, ada, "itm_hat", "avatar_hat");
      await own(t, other, "itm_cape", "avatar_shirt");
      const before = await ada.client.avatar.setAvatar(look);
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ tints: { head: "red" } }, /tints/],
        [{ tints: { tail: "#112233" } }, /^tints\.tail: not a body part/],
        [{ wornItemIds: ["itm_cape"] }, /^wornItemIds: "itm_cape" is not an item you own/],
        [{ wornItemIds: ["itm_wave"] }, /^wornItemIds: "itm_wave" is not a wearable/],
        [{ wornItemIds: ["itm_hat", "itm_hat"] }, /^wornItemIds: "itm_hat" is listed twice/],
        [{ emotes: { 9: "itm_wave" } }, /emotes/],
        [{ emotes: { 1: "itm_hat" } }, /^emotes\.1: "itm_hat" is not an emote/],
        [{ emotes: { 2: "itm_none" } }, /^emotes\.2: "itm_none" is not an item you own/],
        [{ proportions: { height: 1.5 } }, /proportions/],
        [{ proportions: { head: 0.5 } }, /proportions/],
        [{ body: "no spaces" }, /^body: /],
      ];
      for (const [patch, message] of cases) {
        await expectError(ada.client.avatar.setAvatar({ ...look, ...patch } as never), Code.InvalidArgument, message);
      }
      expect(await ada.client.avatar.getAvatar({})).toEqual(before);
    });

    it("should refuse guests", async () => {
      await using t = await testServer(kind);
      const guest = await member(t, { guest: true });
      await expectError(guest.client.avatar.setAvatar(look), Code.PermissionDenied);
    });
  });

  describe("headshot", () => {
    it("should put a headshot URL in every UserSummary that changes when the avatar does, and serve it as SVG", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const before = (await t.client().social.getProfile({ userId: ada.user.userId })).user.headshotUrl;
      expect(before).toBe(`/avatars/${ada.user.userId}/headshot.svg?v=0`);
      const first = await t.fetch(new URL(before, t.baseUrl));
      expect(first.status).toBe(200);
      expect(first.headers.get("content-type")).toBe("image/svg+xml");
      expect(first.headers.get("cache-control")).toContain("immutable");
      const firstSvg = await first.text();
      expect(firstSvg).toMatch(/^<svg /);
      await ada.client.avatar.setAvatar({ ...look, tints: { head: "#ff0000" } });
      const after = (await t.client().social.getProfile({ userId: ada.user.userId })).user.headshotUrl;
      expect(after).toBe(`/avatars/${ada.user.userId}/headshot.svg?v=1`);
      const svg = await (await t.fetch(new URL(after, t.baseUrl))).text();
      expect(svg).toContain("#ff0000");
      expect(svg).not.toBe(firstSvg);
      // The old URL now names a past version: it must be revalidated.
      expect((await t.fetch(new URL(before, t.baseUrl))).headers.get("cache-control")).toBe("no-cache");
      expect((await t.fetch(new URL("/avatars/usr_nope/headshot.svg", t.baseUrl))).status).toBe(404);
    });
  });
});
