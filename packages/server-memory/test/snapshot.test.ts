import { Code } from "@playfield/core";
import { describe, expect, it } from "vitest";
import { createMemoryServer } from "../src/create-memory-server.js";
import { createMemoryStorage } from "../src/storage/memory-storage.js";
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
    const { transact, clear } = createMemoryStorage();
    const server = createMemoryServer({ storage: { transact, clear } });
    await expectError(server.snapshot(), Code.Unimplemented, /^snapshot: /);
    await expectError(server.restore({ storage: { adapter: "x", data: null }, clockMs: 0 }), Code.Unimplemented, /^restore: /);
  });

  it("should refuse a snapshot another adapter took", async () => {
    const server = createMemoryServer();
    await expect(server.restore({ storage: { adapter: "other", data: [] }, clockMs: 0 })).rejects.toThrow(/cannot be restored into the memory storage/);
  });
});
