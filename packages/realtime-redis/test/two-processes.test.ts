/*
 * Two `playfield-server` processes on one PostgreSQL schema and one Redis
 * key prefix, a @playfield/client on each, behave as one server: what one
 * writes the other reads, realtime events and presence cross between them,
 * and the death of one (kill -9) costs its users their connections only.
 * Skipped, with one line, when PostgreSQL or Redis does not answer; in CI
 * that fails the run instead (the global setups).
 */
import { createClient, createRealtime, type PlayfieldClient, type Realtime, type RealtimeMessage } from "@playfield/client";
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runServer, startServerProcess, type ServerProcess } from "../../cli/test/server-process.js";
import { dropSchema, freshSchema } from "../../storage-postgres/test/postgres-schema.js";
import { adminClient, dropPrefix, freshPrefix } from "./redis-test-kit.js";
import { failoverProxy, type FailoverProxy } from "./failover-proxy.js";

const redisUrl = inject("redisUrl");
const postgresUrl = inject("postgresUrl");
/** How long a killed process's users may stay online for the others: the heartbeat TTL and one sweep (docs/deploy.md). */
const PRESENCE_TTL_MS = 5_000 + 1_000;

interface Player {
  client: PlayfieldClient;
  userId: string;
  realtime?: Realtime;
  /** Every realtime message received, oldest first. */
  heard: RealtimeMessage[];
}

const password = "correct horse battery";

async function signUp(url: string, username: string): Promise<Player> {
  const client = createClient({ baseUrl: url });
  const { me } = await client.identity.signUp({ username, password, birthdate: "1990-01-01", displayName: username });
  return { client, userId: me.user!.id, heard: [] };
}

/** Opens the player's realtime connection at `url` and waits for `ready`. */
async function goLive(player: Player, url: string): Promise<void> {
  player.realtime = createRealtime(player.client, { url, WebSocket: WebSocket as never, backoffMs: 100, maxBackoffMs: 400 });
  player.realtime.on("*", (message) => { player.heard.push(message); });
  await player.realtime.ready();
}

/** Waits until the player heard a message matching `match`; answers it. */
async function heard(player: Player, match: (message: RealtimeMessage) => boolean, timeout = 10_000): Promise<RealtimeMessage> {
  await expect.poll(() => player.heard.some(match), { timeout, interval: 20 }).toBe(true);
  return player.heard.find(match)!;
}

const presenceOf = (player: Player, userId: string) => player.heard.filter((m) => m.type === "presence" && m.userId === userId).map((m) => m.presence);

describe.skipIf(redisUrl === null || postgresUrl === null)("two playfield-server processes on one PostgreSQL and one Redis", () => {
  const schema = freshSchema("two_processes");
  const prefix = freshPrefix("two-processes");
  const shared = () => ["--database-url", postgresUrl!, "--database-schema", schema, "--redis-url", redisUrl!, "--redis-prefix", prefix];
  let a: ServerProcess;
  let b: ServerProcess;
  let ada: Player;
  let bob: Player;
  const players: Player[] = [];

  beforeAll(async () => {
    // The first creates the tables; the second starts on them.
    // Development mode: the chat rate and throttles are on, as a deployment's are (test mode turns the chat rate off).
    a = await startServerProcess(shared(), { PLAYFIELD_ENV: "development" });
    b = await startServerProcess(shared(), { PLAYFIELD_ENV: "development" });
    ada = await signUp(a.url, "two_ada");
    bob = await signUp(b.url, "two_bob");
    players.push(ada, bob);
  }, 120_000);

  afterAll(async () => {
    for (const player of players) player.realtime?.close();
    await Promise.all([a?.kill9(), b?.kill9()]);
    await dropSchema(postgresUrl!, schema);
    const admin = adminClient(redisUrl!);
    await dropPrefix(admin, prefix);
    await admin.quit();
  }, 60_000);

  it("should say at start that it shares with the other processes through Redis", () => {
    expect(a.lines.join("\n")).toMatch(/shared with the other processes on this database through Redis at redis:\/\/\S+ \(keys under test:two-processes:/);
  });

  it("should see accounts and profiles made through the other", async () => {
    const seenByBob = await bob.client.social.getProfile({ username: "two_ada" });
    expect(seenByBob.user?.id).toBe(ada.userId);
    const seenByAda = await ada.client.social.getProfile({ userId: bob.userId });
    expect(seenByAda.user?.displayName).toBe("two_bob");
  });

  it("should accept on one a friend request sent on the other", async () => {
    await ada.client.social.sendFriendRequest({ userId: bob.userId });
    const requests = await bob.client.social.listFriendRequests({});
    expect(requests.incoming.map((r) => r.id)).toContain(ada.userId);
    await bob.client.social.acceptFriendRequest({ userId: ada.userId });
    const { friends } = await ada.client.social.listFriends({});
    expect(friends.map((f) => f.user?.id)).toEqual([bob.userId]);
  });

  it("should tell a friend on one process the presence of a user connected to the other", async () => {
    await goLive(ada, a.url);
    await goLive(bob, b.url);
    // Bob came online on B: Ada, on A, is told.
    await heard(ada, (m) => m.type === "presence" && m.userId === bob.userId && m.presence === "online");
    const { friends } = await ada.client.social.listFriends({});
    expect(friends[0]).toMatchObject({ presence: "online" });
  });

  it("should deliver a DM across, acknowledged to its sender", async () => {
    expect(ada.realtime!.chat(`dm:${bob.userId}`, "hello from A", "dm-1")).toBe(true);
    await heard(ada, (m) => m.type === "chat_ack" && m.clientMessageId === "dm-1");
    const message = await heard(bob, (m) => m.type === "chat_message" && m.text === "hello from A");
    expect(message).toMatchObject({ channel: `dm:${ada.userId}`, sender: { id: ada.userId } });
  });

  it("should send game_invite and session_members across", async () => {
    const { url: contentUrl } = await ada.client.catalog.uploadContent({ data: Buffer.from("{}").toString("base64"), contentType: "application/json" });
    const world = await ada.client.catalog.createExperience({ title: "Two processes", hostingTier: "edge", maxPlayers: 10 });
    await ada.client.catalog.publishVersion({ experienceId: world.id, contentUrls: { web: `${a.url}${contentUrl}` } });
    await ada.client.catalog.addTester({ experienceId: world.id, userId: bob.userId });
    const joined = await ada.client.session.join({ experienceId: world.id });
    await ada.client.session.inviteToSession({ sessionId: joined.sessionId, userId: bob.userId });
    await heard(bob, (m) => m.type === "game_invite" && m.sessionId === joined.sessionId);
    await bob.client.session.join({ experienceId: world.id, sessionId: joined.sessionId });
    const members = await heard(ada, (m) => m.type === "session_members" && Array.isArray(m.members) && m.members.length === 2);
    expect((members.members as { user: { id: string } }[]).map((m) => m.user.id).sort()).toEqual([ada.userId, bob.userId].sort());
    // Leaving the session brings both back to plain `online` for the other (not part of the checks below).
    await ada.client.session.leave({ sessionId: joined.sessionId });
    await bob.client.session.leave({ sessionId: joined.sessionId });
  });

  it("should serve through one a blob uploaded through the other", async () => {
    const bytes = Buffer.from("a level uploaded on A");
    const upload = await ada.client.catalog.uploadContent({ data: bytes.toString("base64"), contentType: "application/json" });
    const served = await fetch(`${b.url}${upload.url}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
  });

  it("should refuse a signed-out token through the process that signed it out at once, and through the other once PostgreSQL's notice reaches it", async () => {
    const device = createClient({ baseUrl: a.url });
    const signedIn = await device.identity.signIn({ username: "two_ada", password });
    const onB = createClient({ baseUrl: b.url });
    await onB.auth.setTokens({ accessToken: signedIn.accessToken });
    // Twice on each: the second call is answered from the process's copies of the rows (docs/storage.md, "Cached rows").
    for (let i = 0; i < 2; i++) {
      expect((await onB.identity.getMe({})).user?.id).toBe(ada.userId);
      expect((await device.identity.getMe({})).user?.id).toBe(ada.userId);
    }
    await device.identity.signOut({ refreshToken: signedIn.refreshToken });
    const onA = createClient({ baseUrl: a.url });
    await onA.auth.setTokens({ accessToken: signedIn.accessToken });
    await expect(onA.identity.getMe({})).rejects.toMatchObject({ code: "unauthenticated" });
    // The notice's delay is milliseconds (bench/RESULTS.md, row-cache); a loaded machine gets a second.
    await expect.poll(() => onB.identity.getMe({}).then(() => "accepted", (error: { code?: string }) => error.code), { timeout: 1_000, interval: 5 })
      .toBe("unauthenticated");
  });

  it("should count sign-in failures through both against one limit (3 on each trip the limit of 5)", async () => {
    await signUp(a.url, "two_fay");
    const attempt = (url: string) => createClient({ baseUrl: url }).identity.signIn({ username: "two_fay", password: "not the password" }).then(() => "signed in", (error: { code: string }) => error.code);
    const codes: string[] = [];
    for (const url of [a.url, b.url, a.url, b.url, a.url, b.url]) codes.push(await attempt(url));
    expect(codes.slice(0, 5).filter((code) => code === "resource_exhausted")).toEqual([]);
    expect(codes[5]).toBe("resource_exhausted");
  });

  it("should count a user's chat sends through both against one bucket (5 on each trip the burst of 10)", async () => {
    // Gus has a connection on each process. The server's limit: 10 messages at once, then one a second (docs/chat.md).
    const gus = await signUp(a.url, "two_gus");
    const gusOnB: Player = { client: gus.client, userId: gus.userId, heard: [] };
    players.push(gus, gusOnB);
    await goLive(gus, a.url);
    await goLive(gusOnB, b.url);
    /** Sends a DM to Bob through the player's connection; its ack or its refusal. */
    const send = (player: Player, clientMessageId: string) => new Promise<RealtimeMessage>((resolve) => {
      const stop = player.realtime!.on("*", (message) => {
        if ((message.type === "chat_ack" || message.type === "error") && message.clientMessageId === clientMessageId) {
          stop();
          resolve(message);
        }
      });
      expect(player.realtime!.chat(`dm:${bob.userId}`, "hi", clientMessageId)).toBe(true);
    });
    const refusal = (clientMessageId: string) => ({ type: "error", about: "chat_send", code: "resource_exhausted", clientMessageId, retryAfterMs: expect.any(Number) });
    const refusalText = /^rate limit: 10 messages at once, then one every 1000 ms; retry after \d+ ms$/;
    // Through A and B in turn until one is refused.
    const started = performance.now();
    let accepted = 0;
    let refused: { message: RealtimeMessage; sentAt: number; other: Player } | undefined;
    for (let i = 0; !refused && i < 40; i++) {
      const [player, other] = i % 2 ? [gusOnB, gus] : [gus, gusOnB];
      const sentAt = performance.now();
      const message = await send(player, `send-${i}`);
      if (message.type === "chat_ack") accepted++;
      else refused = { message, sentAt, other };
    }
    expect(refused, "no send refused in 40").toBeDefined();
    // 5 through each use up the one bucket of 10; within a second the next is refused. The bucket grows back one a second,
    // so on a loaded machine whose sends took longer, those seconds' tokens go through too (docs/chat.md), and no more.
    expect(accepted).toBeGreaterThanOrEqual(10);
    expect(accepted).toBeLessThanOrEqual(10 + Math.floor((performance.now() - started) / 1_000));
    expect(refused!.message).toMatchObject(refusal(refused!.message.clientMessageId as string));
    expect(refused!.message.message).toMatch(refusalText);
    // The next send, through the other process, is refused too: unless it came after the wait the refusal announced.
    const next = await send(refused!.other, "next");
    if (next.type === "chat_ack") expect(performance.now() - refused!.sentAt).toBeGreaterThanOrEqual(refused!.message.retryAfterMs as number);
    else {
      expect(next).toMatchObject(refusal("next"));
      expect(next.message).toMatch(refusalText);
    }
  });

  it("should count an experience's datastore calls through both against one budget (170 on each trip the 340 of one player)", async () => {
    // A minute's budget is 300 calls + 40 per player in the experience's sessions (docs/datastore.md): Ada alone makes 340.
    // Budgets count calendar minutes (of the machine's clock, which the servers share): start in one with time left for
    // every call (342 calls in turn took 26 s at a load of 16 on 2 cores; within 45 s, Ada is not yet a silent member either).
    const minute = () => Math.floor(Date.now() / 60_000);
    const leftMs = 60_000 - (Date.now() % 60_000);
    if (leftMs < 45_000) await new Promise((resolve) => setTimeout(resolve, leftMs));
    const world = await ada.client.catalog.createExperience({ title: "Budget", hostingTier: "edge", maxPlayers: 10 });
    await ada.client.catalog.publishVersion({ experienceId: world.id, contentUrls: { web: "https://cdn.example.com/budget/web.json" } });
    const { sessionId, gameToken } = await ada.client.session.join({ experienceId: world.id });
    const stores = [createClient({ baseUrl: a.url }).datastore, createClient({ baseUrl: b.url }).datastore];
    const startedIn = minute();
    for (let i = 0; i < 170; i++) {
      for (const datastore of stores) await datastore.get({ key: "save" }, { token: gameToken });
    }
    // A Get is counted in its process, which writes its counts and reads the other's every 200 ms while it has some
    // (docs/datastore.md, "Limits per experience"): each process refuses once it has read the other's, well within a second.
    const refusedOnceHeard = (datastore: (typeof stores)[number]) => expect.poll(
      () => datastore.get({ key: "save" }, { token: gameToken }).then(() => "answered", (error: unknown) => error),
      { timeout: 2_000, interval: 50 },
    ).toMatchObject({
      code: "resource_exhausted", rawMessage: expect.stringMatching(/^datastore: this experience used its 340 calls for this minute; try again in \d+ s$/),
    });
    for (const datastore of stores) await refusedOnceHeard(datastore);
    expect(minute(), "every call in one minute's window").toBe(startedIn);
    await ada.client.session.leave({ sessionId });
  }, 120_000);

  it("should conserve money and charge once for concurrent BuyItem through both", async () => {
    const cy = await signUp(a.url, "two_cy");
    players.push(cy);
    const { checkoutUrl } = await cy.client.economy.startTopUp({ packId: "pack_400", method: "sandbox" });
    const paid = await fetch(new URL(checkoutUrl, a.url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "action=pay" });
    expect(await paid.text()).toContain("Payment complete");
    const world = await ada.client.catalog.createExperience({ title: "Shop", hostingTier: "edge", maxPlayers: 10 });
    const product = await ada.client.economy.createItem({ kind: "developer_product", name: "Coins", price: 10, experienceId: world.id });
    // A new experience is a draft: its items exist only for its creator and testers (docs/catalog.md).
    await ada.client.catalog.addTester({ experienceId: world.id, userId: cy.userId });
    // Cy's access token on a second client, calling B (no refresh token: only one client may rotate it).
    const onB = createClient({ baseUrl: b.url });
    await onB.auth.setTokens({ accessToken: (await cy.client.auth.getTokens())!.accessToken });
    const buy = (client: PlayfieldClient, requestId: string) => client.economy.buyItem({ itemId: product.id, expectedPrice: 10, requestId });
    // The same requestId through both, four times at once: one purchase.
    const same = await Promise.all([buy(cy.client, "same"), buy(onB, "same"), buy(cy.client, "same"), buy(onB, "same")]);
    expect(new Set(same.map((r) => r.transactionId)).size).toBe(1);
    // Ten different requestIds, half through each, at once: ten purchases.
    const different = await Promise.all(Array.from({ length: 10 }, (_, i) => buy(i % 2 ? onB : cy.client, `different-${i}`)));
    expect(new Set(different.map((r) => r.transactionId)).size).toBe(10);
    const wallet = await onB.economy.getWallet({});
    expect(Number(wallet.purchased) + Number(wallet.earned)).toBe(400 - 11 * 10);
    const { transactions } = await cy.client.economy.listTransactions({});
    expect(transactions.filter((t) => t.kind === "purchase")).toHaveLength(11);
  }, 60_000);

  it("should turn a killed process's users offline for the other within the documented time, and lose nothing acknowledged", async () => {
    // Dan reaches the servers through a load balancer that prefers B; Eve is connected to B itself; Ada stays on A.
    const proxy: FailoverProxy = await failoverProxy([b.url, a.url]);
    try {
      const [dan, eve] = [await signUp(proxy.url, "two_dan"), await signUp(b.url, "two_eve")];
      players.push(dan, eve);
      for (const friend of [dan, eve]) {
        await friend.client.social.sendFriendRequest({ userId: ada.userId });
        await ada.client.social.acceptFriendRequest({ userId: friend.userId });
      }
      await goLive(dan, proxy.url);
      await goLive(eve, b.url);
      await heard(ada, (m) => m.type === "presence" && m.userId === dan.userId && m.presence === "online");
      await heard(ada, (m) => m.type === "presence" && m.userId === eve.userId && m.presence === "online");
      for (let i = 0; i < 5; i++) dan.realtime!.chat(`dm:${ada.userId}`, `before the kill ${i}`, `kill-${i}`);
      // Every one acknowledged (frames of one connection are handled concurrently: acks come in any order).
      await expect.poll(() => dan.heard.filter((m) => m.type === "chat_ack").length).toBe(5);

      const reconnected = new Promise<void>((resolve) => {
        const stop = dan.realtime!.onState((state) => { if (state === "reconnecting") { stop(); void dan.realtime!.ready().then(resolve); } });
      });
      const killedAt = performance.now();
      await b.kill9();
      // Eve, whose only connection was on B, is offline for Ada within the documented time (a second of slack for a loaded machine).
      await heard(ada, (m) => m.type === "presence" && m.userId === eve.userId && m.presence === "offline", PRESENCE_TTL_MS + 5_000);
      expect(performance.now() - killedAt).toBeLessThan(PRESENCE_TTL_MS + 1_000);
      // Dan's client reconnects, through the balancer, to A, where he is online for Ada.
      await reconnected;
      await expect.poll(() => presenceOf(ada, dan.userId).at(-1)).toBe("online");
      const { friends } = await ada.client.social.listFriends({});
      expect(friends.find((f) => f.user?.id === dan.userId)).toMatchObject({ presence: "online" });
      expect(friends.find((f) => f.user?.id === eve.userId)).toMatchObject({ presence: "offline" });
      // Every acknowledged message is there, and the conversation goes on through A.
      const { conversations } = await ada.client.chat.listConversations({});
      const withDan = conversations.find((c) => c.channel === `dm:${dan.userId}`);
      expect(withDan?.lastMessage).toMatch(/^before the kill \d$/);
      // (Frames of one connection are handled concurrently: their messages may commit in any order.)
      expect(ada.heard.filter((m) => m.type === "chat_message" && String(m.text).startsWith("before the kill")).map((m) => m.text).sort())
        .toEqual(Array.from({ length: 5 }, (_, i) => `before the kill ${i}`));
    } finally {
      await proxy.close();
    }
  }, 60_000);
});

describe.skipIf(redisUrl === null || postgresUrl === null)("playfield-server on PostgreSQL, about Redis", () => {
  const schema = freshSchema("redis_cli");
  afterAll(() => dropSchema(postgresUrl!, schema));

  it("should say in one line that it runs alone without --redis-url", async () => {
    const alone = await startServerProcess(["--database-url", postgresUrl!, "--database-schema", schema]);
    try {
      expect(alone.lines.filter((line) => /single process/.test(line))).toEqual([
        "  single process: realtime events and presence stay in this process; to run several on this database, add --redis-url (docs/deploy.md)",
      ]);
    } finally {
      await alone.kill9();
    }
  }, 60_000);

  it("should name the Redis it cannot reach, without its password, and exit 1", async () => {
    const { code, stderr } = await runServer(["--database-url", postgresUrl!, "--database-schema", schema, "--redis-url", "redis://:secret@127.0.0.1:1"]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^playfield-server: cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1: .*ECONNREFUSED.*\n$/);
  }, 60_000);
});
