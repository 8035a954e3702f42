/*
 * Durability of the `playfield-server` command: acknowledged writes (sign-up,
 * upload, datastore Set, a top-up and BuyItem) survive `kill -9` and a restart on the same data folder (PGlite) or the same
 * PostgreSQL schema, and tokens issued before the kill still work after it
 * (the signing keys live in storage). The server runs as a real child
 * process, so nothing in this process's heap can fake persistence.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { call, startServerProcess } from "../../cli/test/server-process.js";
import { dropSchema, freshSchema } from "./postgres-schema.js";

const postgresUrl = inject("postgresUrl");

/** Writes through the first server, kills it with SIGKILL, and reads everything back through a second on the same storage. */
async function survivesKill9(args: string[]): Promise<void> {
  const first = await startServerProcess(args);
  // Declared out here: the second half reads them back after the restart.
  let signedUp!: Record<string, any>, ada!: string, bytes!: Buffer, upload!: Record<string, any>, world!: Record<string, any>, save!: string;
  let set!: Record<string, any>, bob!: string, pass!: Record<string, any>, bought!: Record<string, any>, walletBefore!: Record<string, any>;
  try {
    signedUp = await call(first.url, "IdentityService/SignUp", { username: "durable_ada", password: "correct horse battery", birthdate: "1990-01-01", displayName: "Ada" });
    ada = signedUp.accessToken as string;
    bytes = Buffer.from("a level that must survive");
    upload = await call(first.url, "CatalogService/UploadContent", { data: bytes.toString("base64"), contentType: "application/json" }, ada);
    // A world of Ada's with a live version, so that a player can join it and write to its datastore.
    world = await call(first.url, "CatalogService/CreateExperience", { title: "Durable world", hostingTier: "edge", maxPlayers: 10 }, ada);
    await call(first.url, "CatalogService/PublishVersion", { experienceId: world.id, contentUrls: { web: `${first.url}${upload.url}` } }, ada);
    // Public, so that Bob may see it and buy its pass (a draft's items exist only for its creator and testers).
    await call(first.url, "CatalogService/UpdateExperience", { experienceId: world.id, visibility: "public" }, ada);
    const joined = await call(first.url, "SessionService/Join", { experienceId: world.id }, ada);
    save = JSON.stringify({ level: 7, coins: 120 });
    set = await call(first.url, "DatastoreService/Set", { key: "save", value: save }, joined.gameToken);
    // Bob tops up through the sandbox checkout and buys Ada's game pass.
    bob = (await call(first.url, "IdentityService/SignUp", { username: "durable_bob", password: "correct horse battery", birthdate: "1990-01-01", displayName: "Bob" })).accessToken as string;
    const { checkoutUrl } = await call(first.url, "EconomyService/StartTopUp", { packId: "pack_400", method: "sandbox" }, bob);
    const paid = await fetch(new URL(checkoutUrl, first.url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "action=pay" });
    expect(await paid.text()).toContain("Payment complete");
    pass = await call(first.url, "EconomyService/CreateItem", { kind: "game_pass", name: "Durable pass", price: 150, experienceId: world.id }, ada);
    bought = await call(first.url, "EconomyService/BuyItem", { itemId: pass.id, expectedPrice: 150, requestId: "durable-buy-1" }, bob);
    walletBefore = await call(first.url, "EconomyService/GetWallet", {}, bob);
    // int64 fields travel as JSON strings.
    expect(walletBefore).toMatchObject({ purchased: "250" });
  } catch (error) {
    // A failed write must not leave the server running.
    await first.kill9();
    throw error;
  }
  await first.kill9();

  const second = await startServerProcess(args);
  try {
    // The access token signed before the kill verifies after it.
    const me = await call(second.url, "IdentityService/GetMe", {}, ada);
    expect(me.user).toEqual(signedUp.me.user);
    const signedIn = await call(second.url, "IdentityService/SignIn", { username: "durable_ada", password: "correct horse battery" });
    expect(signedIn.me.user).toEqual(signedUp.me.user);
    const content = await fetch(`${second.url}${upload.url}`);
    expect(content.status).toBe(200);
    expect(Buffer.from(await content.arrayBuffer())).toEqual(bytes);
    // The datastore entry, read by a player who joins after the restart.
    const rejoined = await call(second.url, "SessionService/Join", { experienceId: world.id }, ada);
    expect(await call(second.url, "DatastoreService/Get", { key: "save" }, rejoined.gameToken)).toMatchObject({ value: save, version: set.version });
    // The purchase: Bob's wallet, his ledger, and the same requestId answering the same purchase, not a second one.
    expect(await call(second.url, "EconomyService/GetWallet", {}, bob)).toEqual(walletBefore);
    const again = await call(second.url, "EconomyService/BuyItem", { itemId: pass.id, expectedPrice: 150, requestId: "durable-buy-1" }, bob);
    expect(again.transactionId).toBe(bought.transactionId);
    expect(await call(second.url, "EconomyService/GetWallet", {}, bob)).toEqual(walletBefore);
    const { transactions } = await call(second.url, "EconomyService/ListTransactions", {}, bob);
    expect(transactions.map((x: { kind: string; amount: string }) => [x.kind, Number(x.amount)])).toEqual([["purchase", -150], ["top_up", 400]]);
  } finally {
    await second.kill9();
  }
}

describe("playfield-server after kill -9", () => {
  it("should keep accounts, tokens, uploads, datastore entries and purchases in a data folder (PGlite)", async () => {
    const folder = await mkdtemp(join(tmpdir(), "playfield-durability-"));
    try {
      await survivesKill9(["--data-dir", join(folder, "data")]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 180_000);

  describe.skipIf(postgresUrl === null)("on PostgreSQL", () => {
    const schema = freshSchema("durability");
    afterAll(() => dropSchema(postgresUrl!, schema));

    it("should keep accounts, tokens, uploads, datastore entries and purchases on PostgreSQL", async () => {
      await survivesKill9(["--database-url", postgresUrl!, "--database-schema", schema]);
    }, 180_000);
  });
});
