/*
 * The rows a datastore Set reads in its serializable transaction, on PGlite
 * and on PostgreSQL (docs/datastore.md, "Limits per experience"): the entry
 * it changes, from the process's copy checked in the transaction once it
 * holds one (docs/storage.md, "Checked copies"), so a warm Set is one
 * message. The membership (which the token check read moments ago), the
 * player seen (written once, never changed) and the usage shard come from
 * the process's copies as they are (`Tx.getCached`, "Cached rows"); the
 * shard is checked only when the Set writes it (its stored bytes change),
 * by the write itself; a new player is read, and recorded, in the
 * transaction.
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

/** The tables of the copies the transaction of `sent` checks instead of reading, in the order taken. */
function rowsChecked(sent: readonly string[]): string[] {
  // A check alone, or a check and the write of its row as one statement (table-layout.ts, checkedUpdate).
  const checked = /^(?:SELECT 1 \/ .* FROM "\w+"\."(\w+)" WHERE id = |WITH written AS \(UPDATE "\w+"\."(\w+)" SET .* SELECT 1 \/ count)/;
  return sent.flatMap((text) => text.split("; ")).flatMap((text) => {
    const found = checked.exec(text);
    return found === null ? [] : [found[1] ?? found[2]!];
  });
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

    it("should read nothing once warm, in one message: the entry a checked copy, the membership, the player seen and the usage shard copies, the shard checked when written", async () => {
      const user = await server.seed.user();
      const token = await server.seed.gameToken(user, { sessionId: "gs_reads", experienceId: "exp_reads" });
      const ds = createClient({
        baseUrl: "http://playfield.test", fetch: server.fetch, tokenStore: createMemoryTokenStore({ accessToken: user.accessToken, refreshToken: "", expiresAt: 0 }),
      }).datastore;
      const set = async (coins: number) => {
        const sent = await messagesOf(messages, () => ds.set({ key: "save", value: JSON.stringify({ coins }) }, { token }));
        return { read: rowsReadInTransaction(sent), checked: rowsChecked(sent), messages: sent.length };
      };
      // PostgreSQL serves copies once it listens for other processes' writes: wait for it (a row read twice, the second time from its copy).
      const readUser = () => messagesOf(messages, () => storage.transact((tx) => tx.get(tables.users, user.userId), { readOnly: true }));
      for (let i = 0; (await readUser(), (await readUser()).length > 0); i++) {
        if (i === 100) throw new Error("the storage never served a copy");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The player's first Set records them as seen: the row is missing, read in the transaction (so recorded once).
      expect((await set(0)).read).toContain("datastore_players");
      // The rows it wrote are kept as written. (On PostgreSQL the notice of a write this process hears too may have
      // dropped a copy after it was kept: then the next Set reads it once more.)
      const warm = { read: [], checked: ["datastore_entries"], messages: 1 };
      if (name === "PGlite") {
        expect(await set(1)).toEqual(warm);
      } else {
        for (let i = 1; (await set(i)).read.length > 0; i++) {
          if (i === 100) throw new Error("the Set never took the copies");
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      // Warm: one message, the entry checked, nothing read; the usage shard, not written (the value's length is the
      // same: only the call's count changes, counted in the process), is not checked.
      for (let coins = 2; coins < 6; coins++) expect(await set(coins)).toEqual(warm);
      // A longer value changes the stored bytes: the shard is written, and the write checks the copy it was taken from.
      expect(await set(100)).toEqual({ read: [], checked: ["datastore_entries", "datastore_usage_shards"], messages: 1 });
      const seen = await storage.transact((tx) => tx.query(tables.datastoreUsageShards, "byExperience", { equals: ["exp_reads"] }));
      expect(seen.reduce((sum, row) => sum + row.playersSeen, 0)).toBe(1);
    });
  });
}
