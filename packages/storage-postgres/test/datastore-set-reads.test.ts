/*
 * The rows a datastore Set reads in its serializable transaction, on PGlite
 * and on PostgreSQL (docs/datastore.md, "Limits per experience"): the entry
 * it changes and its usage shard. The membership (which the token check read
 * moments ago) and the player seen (written once, never changed) come from
 * the process's copies (`Tx.getCached`, docs/storage.md, "Cached rows") once
 * it holds them; a new player is read, and recorded, in the transaction.
 */
import { PGlite } from "@electric-sql/pglite";
import { createClient, createMemoryTokenStore } from "@playfield/client";
import { tables } from "@playfield/core";
import { createMemoryServer, type MemoryServer } from "@playfield/server-memory";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createSqlStorage, pgDatabase, pgliteDatabase, type SqlDatabase, type SqlStorage } from "../src/index.js";
import { countedDatabase, messagesOf } from "./counted-database.js";
import { dropSchema, freshSchema } from "./postgres-schema.js";

const url = inject("postgresUrl");
const schema = freshSchema("set_reads");

/** The tables of the rows the serializable transaction of `sent` reads by primary key, in the order asked for. */
function rowsReadInTransaction(sent: readonly string[]): string[] {
  const statements = sent.flatMap((text) => text.split("; "));
  const begin = statements.indexOf("BEGIN ISOLATION LEVEL SERIALIZABLE");
  return statements.slice(begin + 1).flatMap((text) => /^SELECT data FROM "\w+"\."(\w+)" WHERE id = /.exec(text)?.[1] ?? []);
}

const databases: [name: string, skip: boolean, open: () => SqlDatabase, close: () => Promise<void>][] = [
  ["PGlite", false, () => pgliteDatabase(new PGlite()), async () => undefined],
  ["PostgreSQL", url === null, () => pgDatabase(url!), () => dropSchema(url!, schema)],
];

for (const [name, skip, open, close] of databases) {
  describe.skipIf(skip)(`the rows a datastore Set reads in its transaction, on ${name}`, () => {
    const messages: string[] = [];
    let storage: SqlStorage;
    let server: MemoryServer;
    beforeAll(async () => {
      storage = createSqlStorage(countedDatabase(open(), messages), { schema });
      await storage.init(tables.allTables);
      server = createMemoryServer({ storage });
    }, 120_000);
    afterAll(async () => {
      await server?.lifecycle.idle();
      await storage?.close();
      await close();
    });

    it("should read the entry and its usage shard alone once warm: the membership and the player seen from the process's copies", async () => {
      const user = await server.seed.user();
      const token = await server.seed.gameToken(user, { sessionId: "gs_reads", experienceId: "exp_reads" });
      const ds = createClient({
        baseUrl: "http://playfield.test", fetch: server.fetch, tokenStore: createMemoryTokenStore({ accessToken: user.accessToken, refreshToken: "", expiresAt: 0 }),
      }).datastore;
      const set = async (coins: number) => rowsReadInTransaction(await messagesOf(messages, () => ds.set({ key: "save", value: JSON.stringify({ coins }) }, { token })));
      // PostgreSQL serves copies once it listens for other processes' writes: wait for it (a row read twice, the second time from its copy).
      const readUser = () => messagesOf(messages, () => storage.transact((tx) => tx.get(tables.users, user.userId), { readOnly: true }));
      for (let i = 0; (await readUser(), (await readUser()).length > 0); i++) {
        if (i === 100) throw new Error("the storage never served a copy");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const warm = ["datastore_entries", "datastore_usage_shards"];
      // The player's first Set records them as seen: the row is missing, read in the transaction (so recorded once).
      // (On PostgreSQL the notice of the seed's write of the membership, which this process hears too, may have dropped its copy.)
      expect((await set(0)).filter((table) => table !== "session_members")).toEqual([...warm, "datastore_players"]);
      if (name === "PGlite") {
        // Its write dropped the copy: read again, and kept.
        expect(await set(1)).toEqual([...warm, "datastore_players"]);
      } else {
        // The same, but the notice of that write may come after the copy was kept, and drop it once more.
        for (let i = 1; (await set(i)).length > warm.length; i++) {
          if (i === 100) throw new Error("the Set never took the copies");
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      // Warm: nothing writes those rows, and a Set reads neither.
      for (let coins = 2; coins < 6; coins++) expect(await set(coins)).toEqual(warm);
      const seen = await storage.transact((tx) => tx.query(tables.datastoreUsageShards, "byExperience", { equals: ["exp_reads"] }));
      expect(seen.reduce((sum, row) => sum + row.playersSeen, 0)).toBe(1);
    });
  });
}
