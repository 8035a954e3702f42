import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLocalStorageTokenStore, type StorageLike } from "../src/index.js";

/** A Web Storage stand-in over a Map. */
function memoryStorage(): StorageLike & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => { entries.set(key, value); },
    removeItem: (key) => { entries.delete(key); },
  };
}

const tokens = () => fc.record({ accessToken: fc.string(), refreshToken: fc.string(), expiresAt: fc.nat() });

describe("createLocalStorageTokenStore", () => {
  afterEach(() => { vi.unstubAllGlobals(); });

  it("should give back the tokens it kept, across store instances on the same storage", () => {
    fc.assert(fc.property(tokens(), (t) => {
      const storage = memoryStorage();
      createLocalStorageTokenStore({ storage }).set(t);
      expect(createLocalStorageTokenStore({ storage }).get()).toEqual(t);
    }));
  });

  it("should keep them under the key given, and remove it on clear", () => {
    const storage = memoryStorage();
    const store = createLocalStorageTokenStore({ storage, key: "game.tokens" });
    store.set({ accessToken: "a", refreshToken: "r", expiresAt: 1 });
    expect([...storage.entries.keys()]).toEqual(["game.tokens"]);
    store.clear();
    expect(storage.entries.size).toBe(0);
    expect(store.get()).toBeUndefined();
  });

  it("should use globalThis.localStorage under playfield.tokens by default", () => {
    const storage = memoryStorage();
    vi.stubGlobal("localStorage", storage);
    createLocalStorageTokenStore().set({ accessToken: "a", refreshToken: "r", expiresAt: 1 });
    expect(JSON.parse(storage.entries.get("playfield.tokens")!)).toEqual({ accessToken: "a", refreshToken: "r", expiresAt: 1 });
  });

  it("should read an entry that is not tokens as signed out", () => {
    for (const text of ["not json", "null", "[]", '{"accessToken":"a"}', '{"accessToken":1,"refreshToken":"r","expiresAt":0}']) {
      const storage = memoryStorage();
      storage.setItem("playfield.tokens", text);
      expect(createLocalStorageTokenStore({ storage }).get()).toBeUndefined();
    }
  });

  it("should read as signed out and write nothing where there is no localStorage", () => {
    vi.stubGlobal("localStorage", undefined);
    const store = createLocalStorageTokenStore();
    expect(() => store.set({ accessToken: "a", refreshToken: "r", expiresAt: 1 })).not.toThrow();
    expect(store.get()).toBeUndefined();
  });
});
