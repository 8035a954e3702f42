/*
 * Calls whose reads once grew with the rows they answer about, on PostgreSQL
 * (node-postgres, loopback) against the in-memory adapter in the same run,
 * through the whole server in process (client → fetch handler → service →
 * storage): ListFriends of a user with 500 friends (half of them in a
 * game session), SearchUsers among 10,000 users (a prefix that 1 in 12 names start
 * with, and a display-name word), and Join of an experience where those 500
 * friends play. Each figure is the median of several calls after a warm-up.
 *
 * Then, on PostgreSQL alone, each read loop a service replaced against its
 * replacement, alternating in the same run, with the reads (round trips)
 * each makes: players now for a page of 20 experiences, a 100-item
 * inventory, the unread total over 50 unread DMs, the count of every user
 * a search makes, and a world file imported row by row or by bulk loads.
 *
 *   PLAYFIELD_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *     node --conditions=@playfield/source --import tsx bench/read-loops.bench.ts
 *
 * The bench works in a PostgreSQL schema of its own and drops it after.
 */
import { cpus, loadavg } from "node:os";
import { ChannelKind, tables, usernameKey, type ExperienceRow, type ItemRow, type Storage, type Tx, type UserRow } from "@playfield/core";
import { createClient, createMemoryTokenStore } from "@playfield/client";
import { createMemoryServer, createMemoryStorage } from "@playfield/server-memory";
import { createPostgresStorage } from "../packages/storage-postgres/src/index.js";
import { dropSchema, freshSchema } from "../packages/storage-postgres/test/postgres-schema.js";
import { formatDuration, medianMs, timeOnce } from "./lib/measure.js";
import { createReadStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { decodeRow } from "../packages/storage-postgres/src/index.js";
import { countingStorage } from "../packages/server/test/counting-storage.js";
import { playersNowOf } from "../packages/server/src/services/catalog/players-now.js";
import { itemViews, ownedItems, ownershipId } from "../packages/server/src/services/economy/items.js";
import { inboxOf, unreadTotal } from "../packages/server/src/services/chat/inbox.js";
import { storeChat } from "../packages/server/src/services/chat/send.js";
import { exportWorld, importWorld } from "../packages/cli/src/world-file.js";

const FRIENDS = 500;
// BENCH_USERS: fewer users for a quick check of the bench itself (at least 250).
const USERS = Number(process.env.BENCH_USERS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const url = process.env.PLAYFIELD_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const FIRST = ["ada", "sam", "max", "kai", "lea", "noa", "ivy", "zoe", "eli", "ray", "jun", "mia"];
const SURNAMES = ["Smith", "Garcia", "Nguyen", "Okafor", "Kowalski", "Tanaka", "Silva", "Haddad", "Novak", "Larsen"];
const settings = { whoCanMessage: "everyone", whoCanFriend: "everyone", whoCanJoin: "everyone", showOnlineStatus: true, emailNotifications: true, theme: "system" } as const;

function userRow(i: number): UserRow {
  const username = `${FIRST[i % FIRST.length]}_${i}`;
  return {
    id: `usr_b${String(i).padStart(6, "0")}`, username, usernameKey: usernameKey(username), displayName: `${FIRST[i % FIRST.length]} ${SURNAMES[i % SURNAMES.length]}`,
    passwordHash: null, birthdate: "1990-01-01", guest: false, createdAt: 0, deletedAt: null, settings,
  };
}

interface World { name: string; seconds: number; client: ReturnType<typeof createClient>; experienceId: string; viewerId: string; server: ReturnType<typeof createMemoryServer> }

/** A server on `storage` with USERS users (written around saveUser, as an import does), a viewer with FRIENDS friends, and an experience half of them play. */
async function world(storage: Storage) {
  const server = createMemoryServer({ storage });
  const viewer = await server.seed.user({ username: "viewer_1" });
  const now = server.clock.now();
  for (let from = 0; from < USERS; from += 1_000) {
    await storage.transact(async (tx) => {
      for (let i = from; i < from + 1_000; i++) {
        const user = userRow(i);
        await tx.put(tables.users, user);
        if (i >= FRIENDS / 2) continue;
        await tx.put(tables.friendEdges, { id: `${viewer.userId}:${user.id}`, userId: viewer.userId, friendId: user.id, createdAt: now + i });
        await tx.put(tables.friendEdges, { id: `${user.id}:${viewer.userId}`, userId: user.id, friendId: viewer.userId, createdAt: now + i });
      }
    });
  }
  const client = createClient({
    baseUrl: "http://playfield.test", fetch: server.fetch,
    tokenStore: createMemoryTokenStore({ accessToken: viewer.accessToken, refreshToken: viewer.refreshToken, expiresAt: 0 }),
  });
  const creator = createClient({ baseUrl: "http://playfield.test", fetch: server.fetch });
  await creator.auth.setTokens(await server.seed.user({ username: "creator_1" }));
  const experience = await creator.catalog.createExperience({ title: "Bench World", genre: "adventure", hostingTier: "peer", maxPlayers: 16 });
  await creator.catalog.publishVersion({ experienceId: experience.id, contentUrls: { web: "https://cdn.example.com/w.json" } });
  await creator.catalog.updateExperience({ experienceId: experience.id, visibility: "public" });
  // As many friends again are players who join (matchmaking puts them together, 16 a session).
  for (let i = 0; i < FRIENDS / 2; i++) {
    const tokens = await server.seed.user({ username: `player_${i}` });
    await storage.transact(async (tx) => {
      await tx.put(tables.friendEdges, { id: `${viewer.userId}:${tokens.userId}`, userId: viewer.userId, friendId: tokens.userId, createdAt: now + FRIENDS + i });
      await tx.put(tables.friendEdges, { id: `${tokens.userId}:${viewer.userId}`, userId: tokens.userId, friendId: viewer.userId, createdAt: now + FRIENDS + i });
    });
    const player = createClient({ baseUrl: "http://playfield.test", fetch: server.fetch });
    await player.auth.setTokens(tokens);
    await player.session.join({ experienceId: experience.id, platform: "web", engineVersion: "1.0" });
  }
  // The first search indexes the users loaded around saveUser.
  await client.social.searchUsers({ query: "zz" });
  return { server, client, experienceId: experience.id, viewerId: viewer.userId };
}

const PAGE = 20;
const OWNED = 100;
const DMS = 50;

/** What the replaced loops read: a page of experiences with open sessions, an inventory, unread DMs (the viewer's). */
async function loopWorld(server: ReturnType<typeof createMemoryServer>, storage: Storage, viewerId: string) {
  const now = server.clock.now();
  const experienceIds = Array.from({ length: PAGE }, (_, i) => `exp_loop${i}`);
  await storage.transact(async (tx) => {
    for (const [i, id] of experienceIds.entries()) {
      const row: ExperienceRow = {
        id, creatorId: viewerId, title: `Loop ${i}`, description: "", genre: "action", thumbnailUrl: "", visibility: "public", hostingTier: "peer", maxPlayers: 16,
        startPlaceId: "plc_loop", liveVersionId: null, createdAt: now, updatedAt: now, visits: 0, favorites: 0, upVotes: 0, downVotes: 0,
      };
      await tx.put(tables.experiences, row);
      for (let j = 0; j < 3; j++) {
        await tx.put(tables.gameSessions, {
          id: `gs_loop${i}_${j}`, experienceId: id, placeVersionId: "ver_loop", hostingTier: "peer", maxPlayers: 16, hostUserId: null, memberCount: 1 + j, connectUrl: "", createdAt: now, closedAt: null,
        });
      }
    }
    for (let i = 0; i < OWNED; i++) {
      const item: ItemRow = {
        id: `itm_loop${i}`, kind: "avatar_hat", name: `Hat ${i}`, description: "", price: 10, creatorId: userRow(i).id, experienceId: "", thumbnailUrl: "",
        listed: true, sales: 0, createdAt: now, updatedAt: now, seq: i + 1,
      };
      await tx.put(tables.items, item);
      await tx.put(tables.ownership, { id: ownershipId(viewerId, item.id), userId: viewerId, itemId: item.id, kind: item.kind, acquiredAt: now, seq: i + 1 });
    }
  });
  for (let i = 0; i < DMS; i++) {
    for (const text of ["hi", "there"]) {
      await storeChat(server.deps, userRow(i).id, { channel: { kind: ChannelKind.Dm, id: viewerId }, text, clientMessageId: `loop_${text}` });
    }
  }
  return experienceIds;
}

/** The replaced loops and their replacements, read by read as the services did and do. */
function loopCases(viewerId: string, experienceIds: readonly string[]) {
  return [
    {
      name: `players now, page of ${PAGE} experiences`,
      loop: async (tx: Tx) => Promise.all(experienceIds.map(async (id) => {
        let players = 0;
        for (const session of await tx.query(tables.gameSessions, "openByExperience", { equals: [id] })) players += session.memberCount;
        return players;
      })),
      batched: (tx: Tx) => playersNowOf(tx, experienceIds),
    },
    {
      name: `ListInventory of ${OWNED} items`,
      loop: async (tx: Tx) => {
        const owned = await tx.query(tables.ownership, "byUser", { equals: [viewerId], order: "desc" });
        const views = [];
        const creators = new Map<string, UserRow | undefined>();
        for (const o of owned) {
          const item = await tx.get(tables.items, o.itemId);
          if (!item) continue;
          if (!creators.has(item.creatorId)) creators.set(item.creatorId, await tx.get(tables.users, item.creatorId));
          const mine = (await tx.get(tables.ownership, ownershipId(viewerId, item.id))) !== undefined;
          views.push({ id: item.id, creatorName: creators.get(item.creatorId)?.username ?? "", owned: mine });
        }
        return views;
      },
      batched: async (tx: Tx) => {
        const owned = await tx.query(tables.ownership, "byUser", { equals: [viewerId], order: "desc" });
        return (await itemViews(tx, await ownedItems(tx, owned), viewerId)).map((v) => ({ id: v.id, creatorName: v.creatorName, owned: v.owned }));
      },
    },
    {
      name: `unread total over ${DMS} unread DMs`,
      loop: async (tx: Tx) => {
        const counts = await Promise.all((await inboxOf(tx, viewerId)).map((entry) =>
          entry.conversation.lastPos <= entry.unreadAfter ? 0 : tx.count(tables.chatMessages, "byConversation", { equals: [entry.key], range: { gt: entry.unreadAfter } })));
        return counts.reduce((a, b) => a + b, 0);
      },
      batched: (tx: Tx) => unreadTotal(tx, viewerId),
    },
    {
      name: `SearchUsers' count of ${USERS.toLocaleString("en")} users`,
      // The primary index is not counted: a count there walks every entry, as byUsername's did.
      loop: (tx: Tx) => tx.count(tables.users, "primary"),
      batched: (tx: Tx) => tx.count(tables.users, "byUsername"),
    },
  ];
}

/** A world file's rows put one by one in one transaction, as import did before bulk loads. */
async function importByPuts(storage: Storage, path: string): Promise<void> {
  const byName = new Map(tables.allTables.map((table) => [table.name, table]));
  await storage.init(tables.allTables);
  await storage.transact(async (tx) => {
    for await (const text of createInterface({ input: createReadStream(path, { encoding: "utf8" }), crlfDelay: Infinity })) {
      const entry = decodeRow<{ table?: string; row?: unknown }>(text);
      const table = entry.table === undefined ? undefined : byName.get(entry.table);
      if (table) await tx.put(table as never, entry.row as never);
    }
  });
}

const memory = createMemoryStorage();
const schema = freshSchema("bench_read_loops");
const postgres = createPostgresStorage({ url, schema });
try {
  const built: World[] = [];
  for (const [name, storage] of [["memory", memory], ["PostgreSQL", postgres]] as const) {
    const started = performance.now();
    built.push({ name, ...(await world(storage)), seconds: (performance.now() - started) / 1000 });
  }
  console.log(`Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(1)}; ${USERS.toLocaleString("en")} users, ${FRIENDS} friends; median of ${RUNS} calls each`);
  console.log(`World built in ${built.map((w) => `${w.seconds.toFixed(1)} s (${w.name})`).join(", ")}\n`);
  const cases = [
    { name: `ListFriends (${FRIENDS} friends)`, run: (w: World) => w.client.social.listFriends({}) },
    { name: "SearchUsers \"ada\" (1 in 12 names)", run: (w: World) => w.client.social.searchUsers({ query: "ada", limit: 20 }) },
    { name: "SearchUsers \"garcia\" (a word)", run: (w: World) => w.client.social.searchUsers({ query: "garcia", limit: 20 }) },
    {
      name: `Join then Leave (${FRIENDS / 2} friends playing)`,
      run: async (w: World) => {
        const joined = await w.client.session.join({ experienceId: w.experienceId, platform: "web", engineVersion: "1.0" });
        await w.client.session.leave({ sessionId: joined.sessionId });
      },
    },
  ];
  console.log("| case | memory | PostgreSQL | PostgreSQL / memory |");
  console.log("|---|---:|---:|---:|");
  for (const c of cases) {
    const [mem, pg] = [await medianMs(() => c.run(built[0]!), RUNS), await medianMs(() => c.run(built[1]!), RUNS)];
    console.log(`| ${c.name} | ${formatDuration(mem)} | ${formatDuration(pg)} | ${(pg / mem).toFixed(1)}× |`);
  }

  // Each replaced loop against its replacement on PostgreSQL, alternating call by call.
  const pg = built[1]!;
  const counted = countingStorage(postgres);
  const experienceIds = await loopWorld(pg.server, postgres, pg.viewerId);
  console.log(`\nOn PostgreSQL, each replaced read loop against its replacement (alternating, median of ${RUNS} calls each, one transaction per call):\n`);
  console.log("| case | loop: reads | loop: time | batched: reads | batched: time | batched / loop |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const c of loopCases(pg.viewerId, experienceIds)) {
    const run = (fn: (tx: Tx) => Promise<unknown>) => counted.transact(fn, { readOnly: true });
    const [expected, answer] = [await run(c.loop), await run(c.batched)];
    if (JSON.stringify(expected) !== JSON.stringify(answer)) throw new Error(`${c.name}: the replacement answers ${JSON.stringify(answer).slice(0, 200)}, the loop ${JSON.stringify(expected).slice(0, 200)}`);
    const reads = async (fn: (tx: Tx) => Promise<unknown>) => { counted.reset(); await run(fn); return counted.reads.reduce((a, b) => a + b, 0); };
    const [loopReads, batchedReads] = [await reads(c.loop), await reads(c.batched)];
    const times: [number[], number[]] = [[], []];
    for (let i = 0; i < RUNS; i++) {
      times[0].push(await timeOnce(() => run(c.loop)));
      times[1].push(await timeOnce(() => run(c.batched)));
    }
    const [loop, batched] = times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]!);
    console.log(`| ${c.name} | ${loopReads} | ${formatDuration(loop!)} | ${batchedReads} | ${formatDuration(batched!)} | ${(batched! / loop!).toFixed(2)} |`);
  }

  // The world file of the PostgreSQL world, imported into two new schemas: row by row, and by bulk loads.
  const folder = await mkdtemp(join(tmpdir(), "bench-read-loops-"));
  const file = join(folder, "world.jsonl");
  const targets = [freshSchema("bench_import_puts"), freshSchema("bench_import_bulk")];
  try {
    const { rows } = await exportWorld(postgres, file);
    const [byPuts, byLoads] = [createPostgresStorage({ url, schema: targets[0]! }), createPostgresStorage({ url, schema: targets[1]! })];
    try {
      await Promise.all([byPuts.init(tables.allTables), byLoads.init(tables.allTables)]);
      const puts = await timeOnce(() => importByPuts(byPuts, file));
      const loads = await timeOnce(() => importWorld(byLoads, file));
      console.log(`\nImporting the PostgreSQL world's file (${rows.toLocaleString("en")} rows) into a new schema: a put per row in one transaction ${formatDuration(puts)}, bulk loads (importWorld) ${formatDuration(loads)}: ${(loads / puts).toFixed(2)} of the time.`);
    } finally {
      await Promise.all([byPuts.close(), byLoads.close()]);
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
    for (const target of targets) await dropSchema(url, target);
  }
} finally {
  await postgres.close();
  await dropSchema(url, schema);
}
