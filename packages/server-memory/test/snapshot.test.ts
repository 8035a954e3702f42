import { createClient } from "@playfield/client";
import { Code } from "@playfield/core";
import { describe, expect, it } from "vitest";
import { createMemoryStorage } from "@playfield/server";
import { createMemoryServer } from "../src/create-memory-server.js";
import { expectError, testServer, TRANSPORTS } from "./fixtures.js";

describe.each(TRANSPORTS)("MemoryServer.snapshot and restore (%s)", (kind) => {
  it("should put back every record and the clock's time, as often as asked, for suites that seed once", async () => {
    await using t = await testServer(kind);
    const ada = await t.server.seed.user({ username: "ada_seeded", displayName: "Ada" });
    const seededAt = t.server.clock.now();
    t.server.clock.freeze();
    const saved = await t.server.snapshot();
    const search = (token: string) => t.client().social.searchUsers({ query: "ada_" }, { token }).then((r) => r.users.map((u) => u.username).sort());

    for (let round = 0; round < 2; round++) {
      // A test changes the world: signs Ada out everywhere, adds a user, moves time on.
      const newcomer = await t.client().identity.signUp({ username: `ada_new${round}`, password: "a long password", birthdate: "1990-01-01" });
      await t.client().identity.signOutEverywhere({}, { token: ada.accessToken });
      t.server.clock.advance(60 * 60_000);
      await expectError(t.client().identity.getMe({}, { token: ada.accessToken }), Code.Unauthenticated);
      expect(await search(newcomer.accessToken)).toEqual(["ada_new" + round, "ada_seeded"].sort());

      await t.server.restore(saved);
      expect(t.server.clock.now()).toBe(saved.clockMs);
      expect(saved.clockMs).toBeGreaterThanOrEqual(seededAt);
      // Ada's device and token are good again; the newcomer is gone, their token refused.
      expect((await t.client().identity.getMe({}, { token: ada.accessToken })).user.id).toBe(ada.userId);
      await expectError(t.client().identity.getMe({}, { token: newcomer.accessToken }), Code.Unauthenticated);
      expect(await search(ada.accessToken)).toEqual(["ada_seeded"]);
    }
  });
});

describe("MemoryServer.snapshot with a storage that cannot copy its data", () => {
  it("should reject with unimplemented, and restore too", async () => {
    const { transact, init, clear } = createMemoryStorage();
    const server = createMemoryServer({ storage: { transact, init, clear } });
    await expectError(server.snapshot(), Code.Unimplemented, /^snapshot: /);
    await expectError(server.restore({ storage: { adapter: "x", data: null }, clockMs: 0 }), Code.Unimplemented, /^restore: /);
  });

  it("should change nothing when a snapshot does not load", async () => {
    const server = createMemoryServer();
    const ada = await server.seed.user({ username: "ada_kept" });
    const saved = await server.snapshot();
    // A tampered copy: a second user with Ada's username breaks the unique index on names.
    const tables = saved.storage.data as { def: { name: string }; rows: Record<string, unknown>[] }[];
    const users = tables.find((t) => t.def.name === "users")!;
    const tampered = { ...saved, storage: { ...saved.storage, data: tables.map((t) => (t === users ? { ...t, rows: [...t.rows, { ...t.rows[0], id: "u_twin" }] } : t)) } };
    await server.seed.user({ username: "bob_later" });
    await expect(server.restore(tampered)).rejects.toThrow(/unique index/);
    const client = createClient({ baseUrl: "http://playfield.test", fetch: server.fetch });
    expect((await client.identity.getMe({}, { token: ada.accessToken })).user.username).toBe("ada_kept");
    expect((await client.social.searchUsers({ query: "bob_later" })).users.map((u) => u.username)).toEqual(["bob_later"]);
  });

  it("should refuse a snapshot another adapter took", async () => {
    const server = createMemoryServer();
    await expect(server.restore({ storage: { adapter: "other", data: [] }, clockMs: 0 })).rejects.toThrow(/cannot be restored into the memory storage/);
  });
});
