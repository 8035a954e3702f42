import { describe, expect, it } from "vitest";
import { Code, tables } from "@playfield/core";
import { expectError, testServer, TRANSPORTS, type TestServer } from "./fixtures.js";
import { member, openSession, publishedExperience, recordPlay, type Member } from "./catalog-fixtures.js";

const DAY = 86_400_000;

async function befriend(t: TestServer, a: Member, b: Member): Promise<void> {
  const now = t.server.clock.now();
  await t.server.deps.storage.transact(async (tx) => {
    await tx.put(tables.friendEdges, { id: `${a.user.userId}:${b.user.userId}`, userId: a.user.userId, friendId: b.user.userId, createdAt: now });
    await tx.put(tables.friendEdges, { id: `${b.user.userId}:${a.user.userId}`, userId: b.user.userId, friendId: a.user.userId, createdAt: now });
  });
}

async function plays(t: TestServer, experienceId: string, count: number, at?: number): Promise<void> {
  for (let i = 0; i < count; i++) await recordPlay(t, experienceId, `usr_player${i}`, at);
}

const titles = (list: { experiences: { title: string }[] }) => list.experiences.map((e) => e.title);

describe.each(TRANSPORTS)("CatalogService.listExperiences (%s)", (kind) => {
  it("should rank popular by players right now, then by visits, listing public experiences only", async () => {
    await using t = await testServer(kind);
    const ada = await member(t);
    const quiet = await publishedExperience(ada, { title: "Quiet" });
    const visited = await publishedExperience(ada, { title: "Visited" });
    const busy = await publishedExperience(ada, { title: "Busy" });
    const hidden = await publishedExperience(ada, { title: "Hidden", visibility: "private" });
    await publishedExperience(ada, { title: "Draft", visibility: "draft" });
    await plays(t, visited.id, 5);
    await plays(t, quiet.id, 1);
    await openSession(t, busy.id, 2);
    await openSession(t, busy.id, 1);
    await openSession(t, hidden.id, 9);
    const list = await t.client().catalog.listExperiences({ sort: "popular" });
    expect(titles(list)).toEqual(["Busy", "Visited", "Quiet"]);
    expect(list.experiences[0]!.playingNow).toBe(3);
    expect(list.experiences[1]!.visits).toBe(5);
    // "" is popular.
    expect(titles(await t.client().catalog.listExperiences({}))).toEqual(["Busy", "Visited", "Quiet"]);
    expect(titles(await t.client().catalog.listExperiences({ limit: 2 }))).toEqual(["Busy", "Visited"]);
  });

  it("should list new ones newest first, and filter any sort by genre", async () => {
    await using t = await testServer(kind);
    const ada = await member(t);
    await publishedExperience(ada, { title: "Old Race", genre: "racing" });
    t.server.clock.advance(1000);
    await publishedExperience(ada, { title: "Mid Quest", genre: "adventure" });
    t.server.clock.advance(1000);
    await publishedExperience(ada, { title: "New Race", genre: "Racing" });
    expect(titles(await t.client().catalog.listExperiences({ sort: "new" }))).toEqual(["New Race", "Mid Quest", "Old Race"]);
    expect(titles(await t.client().catalog.listExperiences({ sort: "new", genre: "RACING" }))).toEqual(["New Race", "Old Race"]);
    expect(titles(await t.client().catalog.listExperiences({ sort: "popular", genre: "adventure" }))).toEqual(["Mid Quest"]);
    expect(titles(await t.client().catalog.listExperiences({ sort: "top_rated", genre: "adventure" }))).toEqual(["Mid Quest"]);
  });

  it("should rank top_rated by the share of up votes weighed by how many voted", async () => {
    await using t = await testServer(kind);
    const ada = await member(t);
    const lone = await publishedExperience(ada, { title: "Lone" });
    const loved = await publishedExperience(ada, { title: "Loved" });
    const split = await publishedExperience(ada, { title: "Split" });
    const voters = await Promise.all(Array.from({ length: 8 }, () => member(t)));
    await voters[0]!.client.catalog.vote({ experienceId: lone.id, vote: 1 });
    for (const [i, v] of voters.entries()) {
      await v.client.catalog.vote({ experienceId: loved.id, vote: i < 7 ? 1 : -1 });
      await v.client.catalog.vote({ experienceId: split.id, vote: i < 4 ? 1 : -1 });
    }
    expect(titles(await t.client().catalog.listExperiences({ sort: "top_rated" }))).toEqual(["Loved", "Split", "Lone"]);
  });

  it("should search titles and genres by word prefixes, best match first", async () => {
    await using t = await testServer(kind);
    const ada = await member(t);
    await publishedExperience(ada, { title: "Castle Defense", genre: "strategy" });
    await publishedExperience(ada, { title: "Castle", genre: "adventure" });
    const popularOne = await publishedExperience(ada, { title: "The Castle Run", genre: "racing" });
    await publishedExperience(ada, { title: "Cats Café", genre: "casual" });
    await publishedExperience(ada, { title: "Castle Secret", visibility: "private" });
    await plays(t, popularOne.id, 3);
    const c = t.client().catalog;
    expect(titles(await c.listExperiences({ sort: "search", query: "castle" }))).toEqual(["Castle", "Castle Defense", "The Castle Run"]);
    // Titles starting with the query first (newest first among equals), then other matches (here "casual", a genre) by visits.
    expect(titles(await c.listExperiences({ sort: "search", query: "cas" }))).toEqual(["Castle", "Castle Defense", "The Castle Run", "Cats Café"]);
    expect(titles(await c.listExperiences({ query: "CAFE" }))).toEqual(["Cats Café"]);
    expect(titles(await c.listExperiences({ sort: "search", query: "castle strat" }))).toEqual(["Castle Defense"]);
    expect(titles(await c.listExperiences({ sort: "search", query: "castle", genre: "racing" }))).toEqual(["The Castle Run"]);
    expect(titles(await c.listExperiences({ sort: "new", query: "run" }))).toEqual(["The Castle Run"]);
    expect(titles(await c.listExperiences({ sort: "search", query: "dragon" }))).toEqual([]);
    await expectError(c.listExperiences({ sort: "search", query: "  " }), Code.InvalidArgument, /^query: /);
  });

  it("should drop an experience from search once it is no longer public, and follow title changes", async () => {
    await using t = await testServer(kind);
    const ada = await member(t);
    const e = await publishedExperience(ada, { title: "Moon Base" });
    await ada.client.catalog.updateExperience({ experienceId: e.id, title: "Mars Base" });
    expect(titles(await t.client().catalog.listExperiences({ query: "moon" }))).toEqual([]);
    expect(titles(await t.client().catalog.listExperiences({ query: "mars" }))).toEqual(["Mars Base"]);
    await ada.client.catalog.updateExperience({ experienceId: e.id, visibility: "private" });
    expect(titles(await t.client().catalog.listExperiences({ query: "mars" }))).toEqual([]);
  });

  it("should list trending by joins in the last day", async () => {
    await using t = await testServer(kind);
    const ada = await member(t);
    const classic = await publishedExperience(ada, { title: "Classic" });
    const hot = await publishedExperience(ada, { title: "Hot" });
    const warm = await publishedExperience(ada, { title: "Warm" });
    const now = t.server.clock.now();
    await plays(t, classic.id, 20, now - 2 * DAY);
    await plays(t, classic.id, 1, now - 1000);
    await plays(t, hot.id, 4, now - 1000);
    await plays(t, warm.id, 2, now - 1000);
    expect(titles(await t.client().catalog.listExperiences({ sort: "trending" }))).toEqual(["Hot", "Warm", "Classic"]);
    expect(titles(await t.client().catalog.listExperiences({ sort: "trending", limit: 1 }))).toEqual(["Hot"]);
    t.server.clock.advance(DAY);
    expect(titles(await t.client().catalog.listExperiences({ sort: "trending" }))).toEqual([]);
  });

  it("should list up_and_coming: experiences at most 30 days old by joins over the last week", async () => {
    await using t = await testServer(kind);
    const ada = await member(t);
    const veteran = await publishedExperience(ada, { title: "Veteran" });
    await t.server.deps.storage.transact(async (tx) => {
      const row = (await tx.get(tables.experiences, veteran.id))!;
      await tx.put(tables.experiences, { ...row, createdAt: row.createdAt - 40 * DAY });
    });
    const rising = await publishedExperience(ada, { title: "Rising" });
    const newer = await publishedExperience(ada, { title: "Newer" });
    await publishedExperience(ada, { title: "Unplayed" });
    await plays(t, veteran.id, 50);
    await plays(t, rising.id, 6);
    await plays(t, newer.id, 2);
    expect(titles(await t.client().catalog.listExperiences({ sort: "up_and_coming" }))).toEqual(["Rising", "Newer"]);
  });

  it("should list up_and_coming the same when the week's plays are fewer than the young experiences", async () => {
    await using t = await testServer(kind);
    const ada = await member(t);
    const veteran = await publishedExperience(ada, { title: "Veteran" });
    await t.server.deps.storage.transact(async (tx) => {
      const row = (await tx.get(tables.experiences, veteran.id))!;
      await tx.put(tables.experiences, { ...row, createdAt: row.createdAt - 40 * DAY });
    });
    const older = await publishedExperience(ada, { title: "Older" });
    t.server.clock.advance(1000);
    const newer = await publishedExperience(ada, { title: "Newer" });
    const rising = await publishedExperience(ada, { title: "Rising" });
    for (const title of ["Quiet 1", "Quiet 2", "Quiet 3"]) await publishedExperience(ada, { title });
    const now = t.server.clock.now();
    await plays(t, veteran.id, 1);
    await plays(t, rising.id, 2);
    await plays(t, older.id, 1);
    await plays(t, newer.id, 1);
    await plays(t, newer.id, 3, now - 8 * DAY);
    // Equal joins: newest first.
    expect(titles(await t.client().catalog.listExperiences({ sort: "up_and_coming" }))).toEqual(["Rising", "Newer", "Older"]);
  });

  it("should list recent plays of the caller, friends' plays, and experiences the caller tests; nothing for anonymous callers", async () => {
    await using t = await testServer(kind);
    const ada = await member(t), bob = await member(t), cy = await member(t), dee = await member(t);
    const a = await publishedExperience(ada, { title: "Alpha" });
    const b = await publishedExperience(ada, { title: "Beta" });
    const c = await publishedExperience(ada, { title: "Gamma" });
    const secret = await publishedExperience(ada, { title: "Secret", visibility: "private" });
    await recordPlay(t, a.id, bob.user.userId);
    t.server.clock.advance(1000);
    await recordPlay(t, b.id, bob.user.userId);
    t.server.clock.advance(1000);
    await recordPlay(t, a.id, bob.user.userId);
    expect(titles(await bob.client.catalog.listExperiences({ sort: "recent" }))).toEqual(["Alpha", "Beta"]);

    await befriend(t, bob, cy);
    await befriend(t, bob, dee);
    await recordPlay(t, c.id, cy.user.userId);
    await recordPlay(t, c.id, dee.user.userId);
    await recordPlay(t, b.id, dee.user.userId);
    t.server.clock.advance(1000);
    await recordPlay(t, secret.id, dee.user.userId);
    // Gamma has two friends, Beta one; the private one stays hidden from bob.
    expect(titles(await bob.client.catalog.listExperiences({ sort: "friends" }))).toEqual(["Gamma", "Beta"]);
    // As a tester bob sees it: one friend, like Beta, but played later.

    await ada.client.catalog.addTester({ experienceId: secret.id, userId: bob.user.userId });
    expect(titles(await bob.client.catalog.listExperiences({ sort: "testing" }))).toEqual(["Secret"]);
    expect(titles(await bob.client.catalog.listExperiences({ sort: "friends" }))).toEqual(["Gamma", "Secret", "Beta"]);
    for (const sort of ["recent", "friends", "testing"]) expect(titles(await t.client().catalog.listExperiences({ sort }))).toEqual([]);
  });

  it("should list one creator's public experiences, and all of them to the creator", async () => {
    await using t = await testServer(kind);
    const ada = await member(t), bob = await member(t);
    await publishedExperience(ada, { title: "Open" });
    await publishedExperience(ada, { title: "Closed", visibility: "private" });
    await publishedExperience(bob, { title: "Other" });
    expect(titles(await bob.client.catalog.listExperiences({ creatorId: ada.user.userId }))).toEqual(["Open"]);
    expect(titles(await ada.client.catalog.listExperiences({ creatorId: ada.user.userId, sort: "new" }))).toEqual(["Closed", "Open"]);
    expect(titles(await ada.client.catalog.listMyExperiences())).toEqual(["Closed", "Open"]);
  });

  it("should personalise favorited and myVote in lists for the caller", async () => {
    await using t = await testServer(kind);
    const ada = await member(t), bob = await member(t);
    const e = await publishedExperience(ada);
    await bob.client.catalog.favorite({ experienceId: e.id, favorite: true });
    await bob.client.catalog.vote({ experienceId: e.id, vote: -1 });
    expect((await bob.client.catalog.listExperiences({})).experiences[0]).toMatchObject({ favorited: true, myVote: -1, favorites: 1, downVotes: 1 });
    expect((await t.client().catalog.listExperiences({})).experiences[0]).toMatchObject({ favorited: false, myVote: 0 });
  });
});
