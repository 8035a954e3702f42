import { Code, tables, type Storage } from "@playfield/core";
import { describe, expect, it } from "vitest";
import { listen } from "../src/node/index.js";
import { USAGE_FRESH_MS } from "../src/services/datastore/usage-copy.js";
import { sweepSessions } from "../src/services/session/roster.js";
import { inProcessLinks, send } from "./chat-rate-world.js";
import { as, seedGame } from "./datastore-fixtures.js";
import { expectError, type TestServer } from "./fixtures.js";
import { clientFrom } from "./password-fixtures.js";
import { addExperience, player, type Player } from "./session-world.js";
import { twoServers, type TwoServers } from "./two-servers.js";

/*
 * The state two server processes must share (docs/shared-state.md), proven
 * on two servers over one storage: every limit of N trips after N/2
 * attempts through each, the session sweep's effects happen once however
 * many servers sweep, and a token signed out through one is refused by the
 * other as soon as it hears of it (on one storage at once; on PostgreSQL at
 * the notice of the commit: docs/storage.md, "Cached rows"). `open` gives each test one empty store of data
 * as the two servers' storages (two connection pools on a database).
 */

export interface SharedStorage {
  storages: readonly [Storage, Storage];
  close(): Promise<void>;
}

const MINUTE_START = Date.UTC(2026, 5, 1, 12, 0, 0);

/**
 * Waits until `server` refuses `token` with unauthenticated: at once on one
 * storage, at the notice of the commit on PostgreSQL (milliseconds:
 * bench/RESULTS.md, row-cache; a loaded machine gets a second).
 */
async function refusedOnceHeard(server: TestServer, token: string): Promise<void> {
  await expect.poll(() => server.client().identity.getMe({}, { token }).then(() => "accepted", (error: { code?: string }) => error.code), { timeout: 1_000, interval: 5 })
    .toBe(Code.Unauthenticated);
}

/** Two servers on a fresh storage, closed with the block. */
async function world(open: () => Promise<SharedStorage>, options: Parameters<typeof twoServers>[1] = {}): Promise<TwoServers & AsyncDisposable> {
  const shared = await open();
  const two = await twoServers(shared.storages, options);
  two.clock.set(MINUTE_START);
  return { ...two, [Symbol.asyncDispose]: () => shared.close() };
}

/** A peer-tier session of three: the host and a second player joined 61 s ago and fell silent, the third joined 11 s ago. */
async function sessionWithSilentMembers(w: TwoServers): Promise<{ experienceId: string; sessionId: string; host: Player; silent: Player; live: Player }> {
  const [a, b] = w.servers;
  const { experience } = await addExperience(a.server, { hostingTier: "peer" });
  const [host, silent, live] = [await player(a), await player(b), await player(a)];
  const { sessionId } = await host.client.session.join({ experienceId: experience.id });
  await silent.client.session.join({ experienceId: experience.id, sessionId });
  w.clock.advance(50_000);
  await live.client.session.join({ experienceId: experience.id, sessionId });
  w.clock.advance(11_000);
  return { experienceId: experience.id, sessionId, host, silent, live };
}

/** What the sweep left of the session: its row, its members, and the plays it ended in the experience's daily figures. */
async function afterSweep(w: TwoServers, experienceId: string, sessionId: string) {
  return w.storage.transact(async (tx) => ({
    session: await tx.get(tables.gameSessions, sessionId),
    members: (await tx.query(tables.sessionMembers, "bySession", { equals: [sessionId] })).map((m) => m.userId),
    endedPlays: (await tx.query(tables.experienceDaily, "byExperience", { equals: [experienceId] })).reduce((n, d) => n + d.endedPlays, 0),
  }));
}

/** The `session_members` events published about a session since `from`. */
const rosterEvents = (w: TwoServers, sessionId: string, from: number) =>
  w.published.slice(from).filter((p) => p.event.type === "session_members" && p.event.sessionId === sessionId);

export function sharedStateSuite(name: string, open: () => Promise<SharedStorage>): void {
  describe(`two servers on one storage (${name})`, () => {
    it("should count a user's chat sends through both against one bucket: 2 + 2 trip a burst of 4", async () => {
      await using w = await world(open, { chatRate: { burst: 4, intervalMs: 1000 } });
      const [a, b] = w.servers;
      const [ada, bob] = [await a.server.seed.user(), await a.server.seed.user()];
      const links = [await inProcessLinks(a.server.deps)(ada.accessToken), await inProcessLinks(b.server.deps)(ada.accessToken)];
      for (const link of [...links, ...links]) expect(await send(link, `dm:${bob.userId}`, "hi")).toMatchObject({ type: "chat_ack", duplicate: false });
      for (const link of links) {
        expect(await send(link, `dm:${bob.userId}`, "one too many")).toMatchObject({ type: "error", code: Code.ResourceExhausted, retryAfterMs: 1000 });
      }
      w.clock.advance(1000);
      expect(await send(links[1]!, `dm:${bob.userId}`, "on time")).toMatchObject({ type: "chat_ack" });
      expect(await send(links[0]!, `dm:${bob.userId}`, "too soon")).toMatchObject({ code: Code.ResourceExhausted });
    });

    it("should count failed sign-ins through both: 2 + 2 trip a limit of 4 on either", async () => {
      await using w = await world(open, { signInThrottle: { perUsernameAndAddress: { limit: 4, windowMs: 60_000 } } });
      const [a, b] = w.servers;
      const ada = await a.server.seed.user({ username: "ada_shared" });
      for (const t of [a, b, a, b]) await expectError(t.client().identity.signIn({ username: "ada_shared", password: "not the password" }), Code.Unauthenticated);
      for (const t of [a, b]) {
        await expectError(t.client().identity.signIn({ username: "ada_shared", password: ada.password }), Code.ResourceExhausted, /too many failed sign-ins/);
      }
      w.clock.advance(60_000);
      await expect(b.client().identity.signIn({ username: "ada_shared", password: ada.password })).resolves.toBeTruthy();
    });

    it("should check exactly 4 of 10 wrong sign-ins sent at once through both against a limit of 4", async () => {
      await using w = await world(open, { signInThrottle: { perUsernameAndAddress: { limit: 4, windowMs: 60_000 } } });
      await w.servers[0].server.seed.user({ username: "ada_shared" });
      const attempts = await Promise.allSettled(Array.from({ length: 10 }, (_, i) =>
        w.servers[i % 2]!.client().identity.signIn({ username: "ada_shared", password: "not the password" })));
      const codes = attempts.map((a) => (a.status === "rejected" ? (a.reason as { code: string }).code : "signed in"));
      expect(codes.filter((code) => code === Code.Unauthenticated)).toHaveLength(4);
      expect(codes.filter((code) => code === Code.ResourceExhausted)).toHaveLength(6);
    });

    it("should count a stolen token's wrong passwords through both: 2 + 2 trip a limit of 4, and the owner still signs in", async () => {
      await using w = await world(open, { signInThrottle: { perUsernameAndAddress: { limit: 4, windowMs: 60_000 } } });
      const ada = await w.servers[0].server.seed.user({ username: "ada_shared" });
      const token = { token: ada.accessToken };
      for (const [i, t] of w.servers.entries()) {
        const thief = clientFrom(t, "in-process", `203.0.113.${i + 1}`).identity;
        for (let n = 0; n < 2; n++) await expectError(thief.deleteAccount({ password: `guess ${n} of ${i}` }, token), Code.PermissionDenied);
      }
      for (const t of w.servers) {
        await expectError(clientFrom(t, "in-process", "203.0.113.9").identity.deleteAccount({ password: ada.password }, token), Code.ResourceExhausted);
      }
      await expect(clientFrom(w.servers[1], "in-process", "198.51.100.4").identity.signIn({ username: "ada_shared", password: ada.password })).resolves.toBeTruthy();
    });

    it("should slow a username failing from many addresses through both, past a ceiling of 4 = 2 + 2", async () => {
      const perUsername = { limit: 4, windowMs: 60_000, firstDelayMs: 1000, maxDelayMs: 8000 };
      await using w = await world(open, { signInThrottle: { perUsername } });
      const ada = await w.servers[0].server.seed.user({ username: "ada_shared" });
      for (let i = 0; i < 4; i++) {
        const t = w.servers[i % 2]!;
        await expectError(clientFrom(t, "in-process", `203.0.113.${i + 1}`).identity.signIn({ username: "ada_shared", password: "a wrong guess" }), Code.Unauthenticated);
      }
      for (const t of w.servers) {
        await expectError(clientFrom(t, "in-process", "198.51.100.4").identity.signIn({ username: "ada_shared", password: ada.password }), Code.ResourceExhausted, /try again in 1 s/);
      }
      w.clock.advance(1000);
      await expect(clientFrom(w.servers[1], "in-process", "198.51.100.4").identity.signIn({ username: "ada_shared", password: ada.password })).resolves.toBeTruthy();
    });

    it("should count one address's new accounts through both: 2 + 2 trip a limit of 4, another address still creates", async () => {
      await using w = await world(open, { accountCreationLimit: 4 });
      for (const [i, t] of w.servers.entries()) {
        const one = clientFrom(t, "in-process", "203.0.113.7").identity;
        await one.startGuest({});
        await one.signUp({ username: `made_${i}`, password: "a long enough password", birthdate: "1990-05-17" });
      }
      for (const t of w.servers) await expectError(clientFrom(t, "in-process", "203.0.113.7").identity.startGuest({}), Code.ResourceExhausted);
      await expect(clientFrom(w.servers[1], "in-process", "198.51.100.4").identity.startGuest({})).resolves.toBeTruthy();
    });

    it("should number one wallet's ledger rows in the order written, through both servers in one millisecond", async () => {
      await using w = await world(open);
      const ada = await w.servers[0].server.seed.user();
      // The clock stands still: both servers' own sequences hand out the same numbers.
      for (let i = 0; i < 8; i++) await w.servers[i % 2]!.server.operator.wallets.grant(ada.userId, i + 1, `grant ${i}`);
      const rows = await w.storage.transact((tx) => tx.query(tables.ledger, "byUser", { equals: [ada.userId] }));
      expect(rows.map((row) => row.memo)).toEqual(Array.from({ length: 8 }, (_, i) => `grant ${i}`));
      expect(new Set(rows.map((row) => row.seq)).size).toBe(8);
      const { transactions } = await w.servers[1].client().economy.listTransactions({}, { token: ada.accessToken });
      expect(transactions.map((x) => x.amount)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    });

    it("should count an experience's datastore calls through both: 2 + 2 trip a budget of 4", async () => {
      await using w = await world(open, { datastore: { requestsPerMinute: 3, requestsPerPlayer: 1 } });
      const [a, b] = w.servers;
      const game = await seedGame(a, { count: 1 });
      const p = game.players[0]!;
      const stores = [a.client().datastore, b.client().datastore];
      for (const ds of [...stores, ...stores]) await ds.set({ key: "k", value: "1" }, as(p));
      // Writes of a value of the same length change nothing but their count, which each server keeps in its process and
      // writes in the background (docs/datastore.md, "Limits per experience"); idle writes them now.
      await Promise.all([a.server.lifecycle.idle(), b.server.lifecycle.idle()]);
      // A write reads the experience's sum in its transaction: refused through either.
      for (const ds of stores) await expectError(ds.set({ key: "k", value: "22" }, as(p)), Code.ResourceExhausted, /used its 4 calls for this minute/);
      // A Get checks the sum its server last read (b's, by the refused write: it read the sum all the same) and what that server counted since
      // (docs/datastore.md, "Limits per experience"): a's sum is read again once older than USAGE_FRESH_MS.
      await expectError(stores[1]!.get({ key: "k" }, as(p)), Code.ResourceExhausted, /used its 4 calls for this minute/);
      await new Promise((resolve) => setTimeout(resolve, USAGE_FRESH_MS + 50));
      await expectError(stores[0]!.get({ key: "k" }, as(p)), Code.ResourceExhausted, /used its 4 calls for this minute/);
    });

    it("should write the Gets one server counted in its process within moments, into the sum the other reads", async () => {
      await using w = await world(open, { datastore: { requestsPerMinute: 6, requestsPerPlayer: 0 } });
      const [a, b] = w.servers;
      const game = await seedGame(a, { count: 1 });
      const p = game.players[0]!;
      const [onA, onB] = [a.client().datastore, b.client().datastore];
      await onA.set({ key: "k", value: "1" }, as(p));
      for (let i = 0; i < 3; i++) expect((await onA.get({ key: "k" }, as(p))).found).toBe(true);
      // Counted in a's process, then written by its background write (every COUNTS_WRITE_MS), with no shutdown asked for.
      const calls = () => w.storage.transact(async (tx) => (await tx.query(tables.datastoreUsageShards, "byExperience", { equals: [game.experienceId] }))
        .reduce((sum, row) => sum + row.requests, 0));
      await expect.poll(calls, { timeout: 2_000, interval: 20 }).toBe(4);
      // b sums them: 2 calls of 6 are left.
      for (let i = 0; i < 2; i++) await onB.get({ key: "k" }, as(p));
      await expectError(onB.get({ key: "k" }, as(p)), Code.ResourceExhausted, /used its 6 calls for this minute/);
      await b.server.lifecycle.idle();
      expect(await calls()).toBe(6);
      // a's sum is read again once older than USAGE_FRESH_MS: it refuses too.
      await new Promise((resolve) => setTimeout(resolve, USAGE_FRESH_MS + 50));
      await expectError(onA.get({ key: "k" }, as(p)), Code.ResourceExhausted, /used its 6 calls for this minute/);
    });

    it("should count a user's reports through both: 5 + 5 reach the limit of 10 an hour", async () => {
      await using w = await world(open);
      const [a, b] = w.servers;
      const reporter = await player(a);
      const target = await a.server.seed.user();
      const onB = b.client();
      await onB.auth.setTokens({ accessToken: reporter.accessToken, refreshToken: reporter.refreshToken });
      for (let i = 0; i < 5; i++) {
        for (const c of [reporter.client, onB]) await c.safety.reportPlayer({ userId: target.userId, category: "harassment" });
      }
      for (const c of [reporter.client, onB]) {
        await expectError(c.safety.reportPlayer({ userId: target.userId, category: "harassment" }), Code.ResourceExhausted, /too many reports/);
      }
    });

    it("should count a user's uploads through both: 50 + 50 reach the limit of 100 a day", async () => {
      await using w = await world(open);
      const [a, b] = w.servers;
      const ada = await player(a);
      const onB = b.client();
      await onB.auth.setTokens({ accessToken: ada.accessToken, refreshToken: ada.refreshToken });
      const upload = { data: Buffer.from("{}").toString("base64"), contentType: "application/json" };
      for (let i = 0; i < 50; i++) await Promise.all([ada.client.catalog.uploadContent(upload), onB.catalog.uploadContent(upload)]);
      for (const c of [ada.client, onB]) await expectError(c.catalog.uploadContent(upload), Code.ResourceExhausted, /at most 100 uploads per day/);
    });

    it("should refuse a token signed out through one server on that server's next call, and on the other's once it hears of it", async () => {
      await using w = await world(open);
      const [a, b] = w.servers;
      const auth = await a.client().identity.signUp({ username: "ada_signout", password: "correct horse battery", birthdate: "1990-01-01", displayName: "Ada" });
      // B verifies the token's signature once and keeps it in its cache.
      expect((await b.client().identity.getMe({}, { token: auth.accessToken })).user.id).toBe(auth.me.user.id);
      expect((await b.client().identity.getMe({}, { token: auth.accessToken })).user.id).toBe(auth.me.user.id);
      await a.client().identity.signOut({ refreshToken: auth.refreshToken });
      await expectError(a.client().identity.getMe({}, { token: auth.accessToken }), Code.Unauthenticated, /signed out/);
      await refusedOnceHeard(b, auth.accessToken);
      await expectError(b.client().identity.getMe({}, { token: auth.accessToken }), Code.Unauthenticated, /signed out/);
      await expectError(b.client().identity.refresh({ refreshToken: auth.refreshToken }), Code.Unauthenticated);
    });

    it("should refuse the token of an account deleted through one server on that server's next call, and on the other's once it hears of it", async () => {
      await using w = await world(open);
      const [a, b] = w.servers;
      const password = "correct horse battery";
      const auth = await a.client().identity.signUp({ username: "ada_deleted", password, birthdate: "1990-01-01", displayName: "Ada" });
      // Twice on B: the second call is answered from B's copies of the device and the account.
      for (let i = 0; i < 2; i++) expect((await b.client().identity.getMe({}, { token: auth.accessToken })).user.id).toBe(auth.me.user.id);
      await a.client().identity.deleteAccount({ password }, { token: auth.accessToken });
      await expectError(a.client().identity.getMe({}, { token: auth.accessToken }), Code.Unauthenticated);
      await refusedOnceHeard(b, auth.accessToken);
    });

    it("should serve through one server a blob uploaded through the other", async () => {
      await using w = await world(open);
      const [a, b] = w.servers;
      const ada = await player(a);
      const bytes = new TextEncoder().encode(JSON.stringify({ level: 1 }));
      const { url } = await ada.client.catalog.uploadContent({ data: Buffer.from(bytes).toString("base64"), contentType: "application/json" });
      const served = await b.fetch(`${b.baseUrl}${url}`);
      expect(served.status).toBe(200);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
    });

    it("should drop silent members, hand the host over and end their plays once when both servers sweep at the same moment", async () => {
      await using w = await world(open);
      const s = await sessionWithSilentMembers(w);
      const from = w.published.length;
      const changed = await Promise.all(w.servers.map((t) => sweepSessions(t.server.deps)));
      expect(changed.reduce((x, y) => x + y, 0)).toBe(1);
      expect(await afterSweep(w, s.experienceId, s.sessionId)).toMatchObject({
        session: { hostUserId: s.live.userId, memberCount: 1, closedAt: null }, members: [s.live.userId], endedPlays: 2,
      });
      expect(rosterEvents(w, s.sessionId, from).map((p) => p.userIds)).toEqual([[s.live.userId]]);
    });

    it("should run the listening servers' sweep timers without doing anything twice", async () => {
      await using w = await world(open);
      const s = await sessionWithSilentMembers(w);
      const from = w.published.length;
      const started = await Promise.all(w.servers.map((t) => listen(t.server, { port: 0, sessionSweepMs: 5 })));
      try {
        await expect.poll(async () => (await afterSweep(w, s.experienceId, s.sessionId)).members, { timeout: 10_000 }).toEqual([s.live.userId]);
        // Both timers keep firing: give each several more turns.
        await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        await Promise.all(started.map((t) => t.close()));
      }
      expect(await afterSweep(w, s.experienceId, s.sessionId)).toMatchObject({ session: { hostUserId: s.live.userId, memberCount: 1 }, endedPlays: 2 });
      expect(rosterEvents(w, s.sessionId, from).map((p) => p.userIds)).toEqual([[s.live.userId]]);
    });
  });
}
