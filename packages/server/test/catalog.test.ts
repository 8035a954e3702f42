import { describe, expect, it } from "vitest";
import { Code, tables } from "@playfield/core";
import { expectError, testServer, TRANSPORTS } from "./fixtures.js";
import { member, publishedExperience, WEB_MANIFEST } from "./catalog-fixtures.js";

const world = { title: "Sky Islands", description: "Float between islands", genre: "adventure", hostingTier: "edge", maxPlayers: 20 };

describe.each(TRANSPORTS)("CatalogService (%s)", (kind) => {
  describe("createExperience", () => {
    it("should create a draft with its start place, hosting tier and max players, and no live version", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const created = await ada.client.catalog.createExperience(world);
      expect(created).toMatchObject({ title: "Sky Islands", genre: "adventure", visibility: "draft", hostingTier: "edge", maxPlayers: 20, visits: 0, playingNow: 0 });
      expect(created.creator.id).toBe(ada.user.userId);
      expect(created.startPlaceId).toMatch(/^plc_/);
      expect(created.liveVersion).toBeUndefined();
      expect((await ada.client.catalog.listMyExperiences()).experiences.map((e) => e.id)).toEqual([created.id]);
    });

    it("should name the field and the rule of a bad value, and store nothing", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const c = ada.client.catalog;
      await expectError(c.createExperience({ ...world, title: "   " }), Code.InvalidArgument, /^title: /);
      await expectError(c.createExperience({ ...world, hostingTier: "cloud" }), Code.InvalidArgument, /^hostingTier: one of/);
      await expectError(c.createExperience({ ...world, maxPlayers: 101 }), Code.InvalidArgument, /^maxPlayers: 1 to 100/);
      await expectError(c.createExperience({ ...world, hostingTier: "solo", maxPlayers: 2 }), Code.InvalidArgument, /^maxPlayers: 1 for the solo tier/);
      await expectError(c.createExperience({ ...world, hostingTier: "peer", maxPlayers: 17 }), Code.InvalidArgument, /^maxPlayers: at most 16/);
      expect((await c.listMyExperiences()).experiences).toEqual([]);
    });

    it("should refuse guests with permission_denied", async () => {
      await using t = await testServer(kind);
      const guest = await member(t, { guest: true });
      await expectError(guest.client.catalog.createExperience(world), Code.PermissionDenied);
    });
  });

  describe("updateExperience", () => {
    it("should change the fields given and keep the others", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const created = await ada.client.catalog.createExperience(world);
      t.server.clock.advance(1000);
      const updated = await ada.client.catalog.updateExperience({ experienceId: created.id, title: "Sky Isles", thumbnailUrl: "https://cdn.example.com/t.png" });
      expect(updated).toMatchObject({ title: "Sky Isles", description: world.description, thumbnailUrl: "https://cdn.example.com/t.png", visibility: "draft" });
      expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    });

    it("should refuse going public before a version is live, and allow it after", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const created = await ada.client.catalog.createExperience(world);
      await expectError(ada.client.catalog.updateExperience({ experienceId: created.id, visibility: "public" }), Code.FailedPrecondition, /^visibility: publish a version/);
      await ada.client.catalog.publishVersion({ experienceId: created.id, contentUrls: WEB_MANIFEST });
      expect((await ada.client.catalog.updateExperience({ experienceId: created.id, visibility: "public" })).visibility).toBe("public");
    });

    it("should answer permission_denied to a non-creator who sees it and not_found to one who does not", async () => {
      await using t = await testServer(kind);
      const ada = await member(t), bob = await member(t);
      const open = await publishedExperience(ada);
      const draft = await ada.client.catalog.createExperience(world);
      await expectError(bob.client.catalog.updateExperience({ experienceId: open.id, title: "Mine" }), Code.PermissionDenied, /^experienceId: only the creator/);
      await expectError(bob.client.catalog.updateExperience({ experienceId: draft.id, title: "Mine" }), Code.NotFound, /^experienceId: no such experience/);
    });

    it("should take only uploaded content or http(s) URLs as thumbnails", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const created = await ada.client.catalog.createExperience(world);
      await expectError(ada.client.catalog.updateExperience({ experienceId: created.id, thumbnailUrl: "javascript:alert(1)" }), Code.InvalidArgument, /^thumbnailUrl: /);
      await expectError(ada.client.catalog.updateExperience({ experienceId: created.id, thumbnailUrl: `/content/${"a".repeat(64)}` }), Code.InvalidArgument, /^thumbnailUrl: no uploaded content/);
      const upload = await ada.client.catalog.uploadContent({ data: btoa("png bytes"), contentType: "image/png" });
      expect((await ada.client.catalog.updateExperience({ experienceId: created.id, thumbnailUrl: upload.url })).thumbnailUrl).toBe(upload.url);
    });
  });

  describe("visibility", () => {
    it("should hide draft and private experiences from everyone but their creator and testers, as not_found", async () => {
      await using t = await testServer(kind);
      const ada = await member(t), bob = await member(t), tess = await member(t);
      const draft = await ada.client.catalog.createExperience(world);
      const hidden = await publishedExperience(ada, { visibility: "private" });
      await ada.client.catalog.addTester({ experienceId: hidden.id, userId: tess.user.userId });
      await ada.client.catalog.addTester({ experienceId: draft.id, username: tess.user.username });
      for (const id of [draft.id, hidden.id]) {
        await expectError(bob.client.catalog.getExperience({ experienceId: id }), Code.NotFound, /^experienceId: no such experience$/);
        await expectError(t.client().catalog.getExperience({ experienceId: id }), Code.NotFound);
        await expectError(bob.client.catalog.favorite({ experienceId: id, favorite: true }), Code.NotFound);
        await expectError(bob.client.catalog.vote({ experienceId: id, vote: 1 }), Code.NotFound);
        expect((await tess.client.catalog.getExperience({ experienceId: id })).id).toBe(id);
        expect((await ada.client.catalog.getExperience({ experienceId: id })).id).toBe(id);
      }
      // An unknown id answers exactly the same as a hidden one.
      const unknown = await expectError(bob.client.catalog.getExperience({ experienceId: "exp_nope" }), Code.NotFound);
      expect(unknown.rawMessage).toBe("experienceId: no such experience");
    });

    it("should let anyone, signed in or not, see a public experience", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const open = await publishedExperience(ada);
      const seen = await t.client().catalog.getExperience({ experienceId: open.id });
      expect(seen).toMatchObject({ id: open.id, visibility: "public", favorited: false, myVote: 0 });
      expect(seen.liveVersion?.number).toBe(1);
    });
  });

  describe("publishVersion", () => {
    it("should make numbered, immutable versions that go live at once", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const created = await ada.client.catalog.createExperience(world);
      const v1 = await ada.client.catalog.publishVersion({ experienceId: created.id, contentUrls: WEB_MANIFEST, engineMin: { web: "1.4.0" }, notes: "first" });
      expect(v1).toMatchObject({ number: 1, status: "live", placeId: created.startPlaceId, contentUrls: WEB_MANIFEST, engineMin: { web: "1.4.0" }, notes: "first", rejectReason: "" });
      const v2 = await ada.client.catalog.publishVersion({ experienceId: created.id, contentUrls: { ...WEB_MANIFEST, mobile_low: "https://cdn.example.com/low.json" } });
      expect(v2.number).toBe(2);
      expect((await ada.client.catalog.getExperience({ experienceId: created.id })).liveVersion?.id).toBe(v2.id);
      const listed = await ada.client.catalog.listVersions({ experienceId: created.id });
      expect(listed.versions.find((v) => v.id === v1.id)).toEqual(v1);
    });

    it("should validate cook targets, URLs and engine minimums, and store nothing on a bad value", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const { id } = await ada.client.catalog.createExperience(world);
      const c = ada.client.catalog;
      await expectError(c.publishVersion({ experienceId: id }), Code.InvalidArgument, /^contentUrls: at least one of web, desktop/);
      await expectError(c.publishVersion({ experienceId: id, contentUrls: { console: "https://x.example/m.json" } }), Code.InvalidArgument, /^contentUrls.console: not a cook target/);
      await expectError(c.publishVersion({ experienceId: id, contentUrls: { web: "ftp://x/m.json" } }), Code.InvalidArgument, /^contentUrls.web: an http\(s\) URL/);
      await expectError(c.publishVersion({ experienceId: id, contentUrls: { web: `/content/${"b".repeat(64)}` } }), Code.InvalidArgument, /^contentUrls.web: no uploaded content/);
      await expectError(c.publishVersion({ experienceId: id, contentUrls: WEB_MANIFEST, engineMin: { amiga: "1.0" } }), Code.InvalidArgument, /^engineMin.amiga: not a platform/);
      await expectError(c.publishVersion({ experienceId: id, contentUrls: WEB_MANIFEST, engineMin: { ios: "latest" } }), Code.InvalidArgument, /^engineMin.ios: a version/);
      await expectError(c.publishVersion({ experienceId: id, contentUrls: WEB_MANIFEST, budgetReportJson: "{not json" }), Code.InvalidArgument, /^budgetReportJson: must be JSON text/);
      expect((await c.listVersions({ experienceId: id })).versions).toEqual([]);
    });

    it("should reject a version over its published budget, keep the live one, and say why", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const { id } = await ada.client.catalog.createExperience(world);
      const within = { targets: { web: { downloadBytes: 10_000_000, memoryBytes: 200_000_000, triangles: 300_000, drawCalls: 400 } } };
      const v1 = await ada.client.catalog.publishVersion({ experienceId: id, contentUrls: WEB_MANIFEST, budgetReportJson: JSON.stringify(within) });
      expect(v1.status).toBe("live");
      const over = { targets: { web: { ...within.targets.web, triangles: 1_000_001 } } };
      const v2 = await ada.client.catalog.publishVersion({ experienceId: id, contentUrls: WEB_MANIFEST, budgetReportJson: JSON.stringify(over) });
      expect(v2).toMatchObject({ number: 2, status: "rejected", rejectReason: "budgetReportJson: over budget: web triangles 1000001 > 1000000" });
      const malformed = await ada.client.catalog.publishVersion({ experienceId: id, contentUrls: { ...WEB_MANIFEST, desktop: "https://cdn.example.com/d.json" }, budgetReportJson: JSON.stringify(within) });
      expect(malformed).toMatchObject({ number: 3, status: "rejected", rejectReason: "budgetReportJson: malformed: no report for target desktop" });
      const listed = await ada.client.catalog.listVersions({ experienceId: id });
      expect(listed.liveVersionId).toBe(v1.id);
      expect(listed.versions.map((v) => v.status)).toEqual(["rejected", "rejected", "live"]);
      await expectError(ada.client.catalog.setLiveVersion({ experienceId: id, versionId: v2.id }), Code.FailedPrecondition, /^versionId: a rejected version cannot be the live version/);
    });

    it("should answer permission_denied to others who see the experience", async () => {
      await using t = await testServer(kind);
      const ada = await member(t), bob = await member(t);
      const open = await publishedExperience(ada);
      await expectError(bob.client.catalog.publishVersion({ experienceId: open.id, contentUrls: WEB_MANIFEST }), Code.PermissionDenied, /only the creator/);
    });
  });

  describe("listVersions", () => {
    it("should list newest first, page by beforeNumber and say which is live", async () => {
      await using t = await testServer(kind);
      const ada = await member(t), bob = await member(t);
      const { id } = await ada.client.catalog.createExperience(world);
      for (let i = 0; i < 5; i++) await ada.client.catalog.publishVersion({ experienceId: id, contentUrls: WEB_MANIFEST, notes: `v${i + 1}` });
      const first = await ada.client.catalog.listVersions({ experienceId: id, limit: 2 });
      expect(first.versions.map((v) => v.number)).toEqual([5, 4]);
      expect(first.liveVersionId).toBe(first.versions[0]!.id);
      const next = await ada.client.catalog.listVersions({ experienceId: id, limit: 2, beforeNumber: 4 });
      expect(next.versions.map((v) => v.number)).toEqual([3, 2]);
      const last = await ada.client.catalog.listVersions({ experienceId: id, beforeNumber: 2 });
      expect(last.versions.map((v) => v.number)).toEqual([1]);
      await expectError(ada.client.catalog.listVersions({ experienceId: id, limit: 201 }), Code.InvalidArgument, /^limit: at most 200/);
      await expectError(bob.client.catalog.listVersions({ experienceId: id }), Code.NotFound);
    });

    it("should default to 50 versions", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const { id } = await ada.client.catalog.createExperience(world);
      await t.server.deps.storage.transact(async (tx) => {
        for (let n = 1; n <= 60; n++) {
          await tx.put(tables.placeVersions, { id: `ver_${n}`, experienceId: id, placeId: "plc", number: n, contentUrls: WEB_MANIFEST, engineMin: {}, status: "live", rejectReason: "", notes: "", createdAt: n });
        }
      });
      const listed = await ada.client.catalog.listVersions({ experienceId: id });
      expect(listed.versions).toHaveLength(50);
      expect(listed.versions[0]!.number).toBe(60);
    });
  });

  describe("setLiveVersion", () => {
    it("should roll back and forward, while running sessions keep the version they started with", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const { id } = await ada.client.catalog.createExperience(world);
      const v1 = await ada.client.catalog.publishVersion({ experienceId: id, contentUrls: WEB_MANIFEST });
      const v2 = await ada.client.catalog.publishVersion({ experienceId: id, contentUrls: WEB_MANIFEST });
      await t.server.deps.storage.transact((tx) => tx.put(tables.gameSessions, {
        id: "gs_running", experienceId: id, placeVersionId: v2.id, hostingTier: "edge", maxPlayers: 20, hostUserId: null, memberCount: 3, createdAt: 0, closedAt: null,
      }));
      const back = await ada.client.catalog.setLiveVersion({ experienceId: id, versionId: v1.id });
      expect(back.liveVersion?.id).toBe(v1.id);
      expect(back.playingNow).toBe(3);
      const running = await t.server.deps.storage.transact((tx) => tx.get(tables.gameSessions, "gs_running"));
      expect(running?.placeVersionId).toBe(v2.id);
      expect((await ada.client.catalog.setLiveVersion({ experienceId: id, versionId: v2.id })).liveVersion?.id).toBe(v2.id);
    });

    it("should answer not_found for a version of another experience", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const a = await ada.client.catalog.createExperience(world);
      const b = await ada.client.catalog.createExperience(world);
      const vb = await ada.client.catalog.publishVersion({ experienceId: b.id, contentUrls: WEB_MANIFEST });
      await expectError(ada.client.catalog.setLiveVersion({ experienceId: a.id, versionId: vb.id }), Code.NotFound, /^versionId: no such version/);
    });
  });

  describe("vote", () => {
    it("should count up and down votes, change and clear the caller's vote, and show myVote", async () => {
      await using t = await testServer(kind);
      const ada = await member(t), bob = await member(t), cy = await member(t);
      const { id } = await publishedExperience(ada);
      expect(await bob.client.catalog.vote({ experienceId: id, vote: 1 })).toEqual({ upVotes: 1, downVotes: 0, myVote: 1 });
      expect(await cy.client.catalog.vote({ experienceId: id, vote: -1 })).toEqual({ upVotes: 1, downVotes: 1, myVote: -1 });
      expect(await bob.client.catalog.vote({ experienceId: id, vote: -1 })).toEqual({ upVotes: 0, downVotes: 2, myVote: -1 });
      expect(await bob.client.catalog.vote({ experienceId: id, vote: -1 })).toEqual({ upVotes: 0, downVotes: 2, myVote: -1 });
      expect(await cy.client.catalog.vote({ experienceId: id, vote: 0 })).toEqual({ upVotes: 0, downVotes: 1, myVote: 0 });
      expect(await bob.client.catalog.getExperience({ experienceId: id })).toMatchObject({ upVotes: 0, downVotes: 1, myVote: -1 });
      expect((await t.client().catalog.getExperience({ experienceId: id })).myVote).toBe(0);
      await expectError(bob.client.catalog.vote({ experienceId: id, vote: 2 }), Code.InvalidArgument, /^vote: one of 1, -1, 0/);
    });

    it("should refuse guests", async () => {
      await using t = await testServer(kind);
      const ada = await member(t), guest = await member(t, { guest: true });
      const { id } = await publishedExperience(ada);
      await expectError(guest.client.catalog.vote({ experienceId: id, vote: 1 }), Code.PermissionDenied);
    });
  });

  describe("favorite", () => {
    it("should let accounts and guests favorite and unfavorite, counting each once", async () => {
      await using t = await testServer(kind);
      const ada = await member(t), guest = await member(t, { guest: true });
      const { id } = await publishedExperience(ada);
      expect(await guest.client.catalog.favorite({ experienceId: id, favorite: true })).toEqual({ favorited: true, favorites: 1 });
      expect(await guest.client.catalog.favorite({ experienceId: id, favorite: true })).toEqual({ favorited: true, favorites: 1 });
      expect(await ada.client.catalog.favorite({ experienceId: id, favorite: true })).toEqual({ favorited: true, favorites: 2 });
      expect(await guest.client.catalog.getExperience({ experienceId: id })).toMatchObject({ favorited: true, favorites: 2 });
      expect(await guest.client.catalog.favorite({ experienceId: id, favorite: false })).toEqual({ favorited: false, favorites: 1 });
      expect((await guest.client.catalog.getExperience({ experienceId: id })).favorited).toBe(false);
    });
  });

  describe("testers", () => {
    it("should add testers by user id or username, list them and remove them", async () => {
      await using t = await testServer(kind);
      const ada = await member(t), bob = await member(t), cy = await member(t);
      const hidden = await publishedExperience(ada, { visibility: "private" });
      await ada.client.catalog.addTester({ experienceId: hidden.id, userId: bob.user.userId });
      // userId also takes a username.
      const added = await ada.client.catalog.addTester({ experienceId: hidden.id, userId: cy.user.username.toUpperCase() });
      // Listed oldest first; two added in the same millisecond may come in either order.
      expect(added.testers.map((u) => u.id).sort()).toEqual([bob.user.userId, cy.user.userId].sort());
      expect((await ada.client.catalog.addTester({ experienceId: hidden.id, username: bob.user.username })).testers).toHaveLength(2);
      expect((await ada.client.catalog.listTesters({ experienceId: hidden.id })).testers).toHaveLength(2);
      const left = await ada.client.catalog.removeTester({ experienceId: hidden.id, userId: bob.user.userId });
      expect(left.testers.map((u) => u.id)).toEqual([cy.user.userId]);
      await expectError(bob.client.catalog.getExperience({ experienceId: hidden.id }), Code.NotFound);
    });

    it("should refuse unknown users, the creator, and callers who are not the creator", async () => {
      await using t = await testServer(kind);
      const ada = await member(t), bob = await member(t);
      const open = await publishedExperience(ada);
      await expectError(ada.client.catalog.addTester({ experienceId: open.id, username: "nobody_here" }), Code.NotFound, /^userId: no such user/);
      await expectError(ada.client.catalog.addTester({ experienceId: open.id }), Code.InvalidArgument, /^userId: a user id or a username/);
      await expectError(ada.client.catalog.addTester({ experienceId: open.id, userId: ada.user.userId }), Code.InvalidArgument, /^userId: the creator/);
      await expectError(bob.client.catalog.addTester({ experienceId: open.id, userId: bob.user.userId }), Code.PermissionDenied);
      await expectError(bob.client.catalog.listTesters({ experienceId: open.id }), Code.PermissionDenied);
    });
  });

  describe("studio scoped token", () => {
    it("should reach exactly the methods the spec marks studio", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const { token } = await ada.client.identity.issueScopedToken({ scope: "studio" });
      const c = t.client().catalog;
      const o = { token };
      const created = await c.createExperience(world, o);
      await c.updateExperience({ experienceId: created.id, description: "from the studio" }, o);
      const upload = await c.uploadContent({ data: btoa("scene"), contentType: "application/json" }, o);
      await c.publishVersion({ experienceId: created.id, contentUrls: { web: upload.url } }, o);
      expect((await c.getExperience({ experienceId: created.id }, o)).description).toBe("from the studio");
      const bob = await member(t);
      await c.addTester({ experienceId: created.id, userId: bob.user.userId }, o);
      expect((await c.listTesters({ experienceId: created.id }, o)).testers).toHaveLength(1);
      await c.removeTester({ experienceId: created.id, userId: bob.user.userId }, o);
      // One call at a time: a refusal must not arrive before its check waits for it (an unhandled rejection on a slower storage).
      const refused = [
        () => c.listVersions({ experienceId: created.id }, o),
        () => c.setLiveVersion({ experienceId: created.id, versionId: "ver_x" }, o),
        () => c.listExperiences({}, o),
        () => c.listMyExperiences({}, o),
        () => c.favorite({ experienceId: created.id, favorite: true }, o),
        () => c.vote({ experienceId: created.id, vote: 1 }, o),
      ];
      for (const call of refused) await expectError(call(), Code.PermissionDenied, /studio scoped token/);
    });
  });
});
