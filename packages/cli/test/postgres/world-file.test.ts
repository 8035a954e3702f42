/*
 * `playfield-server export` and `import`: a world made on a data folder
 * (PGlite) — an account signed up, an item bought, a datastore entry set,
 * a blob uploaded — is exported by the command, then imported by the
 * command into a PostgreSQL schema of its own, and by `importWorld` into
 * memory. Each copy answers what the original answered, and the tokens the
 * original issued still work (the signing keys moved with the world).
 * The PostgreSQL case is skipped (said once by the global setup) when the
 * database does not answer; in CI it must.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createClient, createMemoryTokenStore } from "@playfield/client";
import { tables, type Storage, type TableDef } from "@playfield/core";
import { createMemoryServer, type MemoryServer } from "@playfield/server-memory";
import { createPgliteStorage, createPostgresStorage, type BulkPut } from "@playfield/storage-postgres";
import { dropSchema, freshSchema } from "../../../storage-postgres/test/postgres-schema.js";
import { createMemoryStorage, createSystemClock, storedSigningKeys } from "@playfield/server";
import { importWorld } from "../../src/world-file.js";
import { runServer } from "../server-process.js";

const url = inject("postgresUrl");

/** A server on `storage` with the keys stored there, as the command starts one. */
async function serverOn(storage: Storage): Promise<MemoryServer> {
  const clock = createSystemClock();
  return createMemoryServer({ storage, keys: await storedSigningKeys(storage, clock) });
}

const clientOf = (server: MemoryServer, accessToken?: string) => createClient({
  baseUrl: "http://playfield.test", fetch: server.fetch,
  ...(accessToken ? { tokenStore: createMemoryTokenStore({ accessToken, refreshToken: "", expiresAt: 0 }) } : {}),
});

interface World { accessToken: string; gameToken: string; contentUrl: string }

/** Sign up, buy, datastore set, upload: the world every copy must hold. */
async function makeWorld(server: MemoryServer): Promise<World> {
  const maker = await server.seed.user();
  const hat = await clientOf(server, maker.accessToken).economy.createItem({ kind: "avatar_hat", name: "Top hat", price: 40 });
  const signedUp = await clientOf(server).identity.signUp({ username: "moving_ada", password: "correct horse battery", birthdate: "1990-01-01", displayName: "Ada" });
  const ada = clientOf(server, signedUp.accessToken);
  await server.operator.wallets.grant(signedUp.me!.user!.id, 100);
  await ada.economy.buyItem({ itemId: hat.id, expectedPrice: 40 });
  // The datastore belongs to an experience: its maker plays it, with a game token signed before the move.
  const gameToken = await server.seed.gameToken(maker, { experienceId: "exp_moving" });
  await clientOf(server).datastore.set({ key: "level", value: '{"stage":7}' }, { token: gameToken });
  const upload = await ada.catalog.uploadContent({ data: Buffer.from("a level that moves").toString("base64"), contentType: "application/json" });
  return { accessToken: signedUp.accessToken, gameToken, contentUrl: upload.url };
}

/** What a copy of the world answers, through the tokens of the original. */
async function answers(server: MemoryServer, world: World) {
  const ada = clientOf(server, world.accessToken);
  const content = await server.fetch(`http://playfield.test${world.contentUrl}`);
  const answered = {
    me: await ada.identity.getMe({}),
    wallet: await ada.economy.getWallet({}),
    inventory: await ada.economy.listInventory({}),
    entry: await clientOf(server).datastore.get({ key: "level" }, { token: world.gameToken }),
    content: { status: content.status, text: await content.text() },
    signIn: (await clientOf(server).identity.signIn({ username: "moving_ada", password: "correct horse battery" })).me,
  };
  // What the server keeps to write later (the Get's count) is written before its storage closes.
  await server.lifecycle.idle();
  return answered;
}

describe("a world moved between storages", () => {
  let folder: string;
  let worldFile: string;
  let world: World;
  let original: Awaited<ReturnType<typeof answers>>;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "playfield-world-"));
    const dataDir = join(folder, "data");
    worldFile = join(folder, "world.jsonl");
    const pglite = createPgliteStorage({ dataDir });
    try {
      await pglite.init((await import("@playfield/core")).tables.allTables);
      const server = await serverOn(pglite);
      world = await makeWorld(server);
      original = await answers(server, world);
    } finally {
      await pglite.close();
    }
    const exported = await runServer(["export", worldFile, "--data-dir", dataDir]);
    expect(exported).toMatchObject({ code: 0, stderr: "" });
    expect(exported.stdout).toBe(`exported ${exported.stdout.match(/\d+ rows of \d+ tables/)?.[0]} to ${worldFile} (storage: data in ${dataDir}, PGlite)\n`);
  }, 240_000);
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it("should hold the signing keys and the blob's bytes in the file", async () => {
    const tablesInFile = new Set((await readFile(worldFile, "utf8")).trim().split("\n").slice(1, -1).map((line) => (JSON.parse(line) as { table: string }).table));
    expect([...tablesInFile]).toEqual(expect.arrayContaining(["users", "signing_keys", "blob_bytes", "wallets", "datastore_entries"]));
    expect(original.content).toEqual({ status: 200, text: "a level that moves" });
    expect(original.wallet.total).toBe(60);
  });

  it("should answer the same in memory, the old tokens included, and refuse a second import over it", async () => {
    const storage = createMemoryStorage();
    await importWorld(storage, worldFile);
    expect(await answers(await serverOn(storage), world)).toEqual(original);
    await expect(importWorld(storage, worldFile)).rejects.toThrow(/^the storage already holds data \(users, /);
  });

  it("should refuse a file cut short, or not a world, changing nothing", async () => {
    const lines = (await readFile(worldFile, "utf8")).trim().split("\n");
    const cut = join(folder, "cut.jsonl");
    await writeFile(cut, `${lines.slice(0, -1).join("\n")}\n`);
    const storage = createMemoryStorage();
    await expect(importWorld(storage, cut)).rejects.toThrow(new RegExp(`^the file ends at line ${lines.length - 1} without its end line: it was cut short$`));
    await writeFile(cut, `${lines[0]}\n{"table":"nope","row":{}}\n`);
    await expect(importWorld(storage, cut)).rejects.toThrow('line 2: unknown table "nope"');
    await writeFile(cut, '{"hello":1}\n');
    await expect(importWorld(storage, cut)).rejects.toThrow(/^line 1: not a Playfield world file/);
    // Nothing was written: a good file still goes in.
    await importWorld(storage, worldFile);
  });

  describe.skipIf(url === null)("on PostgreSQL", () => {
    const schema = freshSchema("world");
    afterAll(() => dropSchema(url!, schema));

    it("should import with the command into a schema of its own and answer the same, the old tokens included", async () => {
      const imported = await runServer(["import", worldFile, "--database-url", url!, "--database-schema", schema]);
      expect(imported).toMatchObject({ code: 0, stderr: "" });
      expect(imported.stdout).toMatch(/^imported \d+ rows of \d+ tables from .* \(storage: on PostgreSQL at /);
      const again = await runServer(["import", worldFile, "--database-url", url!, "--database-schema", schema]);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/^playfield-server: cannot import .*: the storage already holds data \(/);
      const storage = createPostgresStorage({ url: url!, schema });
      try {
        expect(await answers(await serverOn(storage), world)).toEqual(original);
      } finally {
        await storage.close();
      }
    }, 120_000);

    it("should load rows in multi-row inserts in one transaction after checking the whole file, and leave the schema empty when a load fails", async () => {
      const lines = (await readFile(worldFile, "utf8")).trim().split("\n");
      const users = lines.filter((line) => line.startsWith('{"table":"users"'));
      // A copy of a user under another id holds the same username: the file reads well, the load refuses it,
      // after every other table's rows went in: the one transaction takes them all back.
      const twin = users[0]!.replace(/"id":"usr_[^"]*"/, '"id":"usr_twin"');
      const bad = join(folder, "twin.jsonl");
      await writeFile(bad, `${[lines[0], ...lines.slice(1, -1), twin, `{"end":{"rows":${lines.length - 1}}}`].join("\n")}\n`);
      const fresh = freshSchema("world_twin");
      const storage = createPostgresStorage({ url: url!, schema: fresh });
      try {
        await expect(importWorld(storage, bad)).rejects.toThrow(/^rows of users \(line \d+ to line \d+\): /);
        const left = await storage.transact((tx) => Promise.all(tables.allTables.map((table) => tx.count(table as TableDef<unknown>, "primary", { cap: 1 }))));
        expect(left.every((n) => n === 0)).toBe(true);
        // A file cut short is refused before any row is written.
        await writeFile(bad, `${lines.slice(0, -1).join("\n")}\n`);
        await expect(importWorld(storage, bad)).rejects.toThrow(/cut short$/);
        // One load (one database transaction), one put per table (the file holds its rows table by table),
        // and no port transaction but the check that the storage is empty.
        const puts: number[] = [];
        let loads = 0;
        let transactions = 0;
        const watched: Storage = {
          ...storage,
          load: (defs: readonly TableDef<never>[], fill: (put: BulkPut) => Promise<void>) => (loads++, storage.load(defs, (put) => fill((table, rows) => (puts.push(rows.length), put(table, rows))))),
          transact: (fn, options) => (transactions++, storage.transact(fn, options)),
        } as Storage;
        const counts = await importWorld(watched, worldFile);
        expect(counts.rows).toBe(lines.length - 2);
        expect(loads).toBe(1);
        expect(puts).toHaveLength(counts.tables);
        expect(puts.reduce((a, b) => a + b, 0)).toBe(counts.rows);
        expect(transactions).toBe(1);
        expect(await answers(await serverOn(storage), world)).toEqual(original);
      } finally {
        await storage.close();
        await dropSchema(url!, fresh);
      }
    }, 120_000);
  });
});
