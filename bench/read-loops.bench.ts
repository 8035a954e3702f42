/*
 * Calls whose reads once grew with the rows they answer about, on PostgreSQL
 * (node-postgres, loopback) against the in-memory adapter in the same run,
 * through the whole server in process (client → fetch handler → service →
 * storage): ListFriends of a user with 500 friends (half of them in a
 * game session), SearchUsers among 10,000 users (a prefix that 1 in 12 names start
 * with, and a display-name word), and Join of an experience where those 500
 * friends play. Each figure is the median of several calls after a warm-up.
 *
 *   PLAYFIELD_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *     node --conditions=@playfield/source --import tsx bench/read-loops.bench.ts
 *
 * The bench works in a PostgreSQL schema of its own and drops it after.
 */
import { cpus, loadavg } from "node:os";
import { tables, usernameKey, type Storage, type UserRow } from "@playfield/core";
import { createClient, createMemoryTokenStore } from "@playfield/client";
import { createMemoryServer, createMemoryStorage } from "@playfield/server-memory";
import { createPostgresStorage } from "../packages/storage-postgres/src/index.js";
import { dropSchema, freshSchema } from "../packages/storage-postgres/test/postgres-schema.js";
import { formatDuration, medianMs } from "./lib/measure.js";

const FRIENDS = 500;
const USERS = 10_000;
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

interface World { name: string; seconds: number; client: ReturnType<typeof createClient>; experienceId: string }

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
  return { server, client, experienceId: experience.id };
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
} finally {
  await postgres.close();
  await dropSchema(url, schema);
}
