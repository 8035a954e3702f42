import { isTokens, type TokenStore } from "./token-store.js";

/** The part of the Web Storage API the store uses (`localStorage`, `sessionStorage` or a stand-in). */
export type StorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** Options of `createLocalStorageTokenStore`. */
export interface LocalStorageTokenStoreOptions {
  /** Where to keep the tokens; `globalThis.localStorage` when left out. */
  storage?: StorageLike;
  /** The storage key; `"playfield.tokens"` when left out. */
  key?: string;
}

/**
 * Creates a store that keeps tokens in the browser's `localStorage` (or any
 * Web Storage), as JSON under one key, so a page reload stays signed in.
 * A missing storage or an unreadable entry reads as signed out.
 *
 * @example
 * const client = createClient({
 *   baseUrl: "https://api.example.com",
 *   tokenStore: createLocalStorageTokenStore({ key: "my-game.tokens" }),
 * });
 */
export function createLocalStorageTokenStore(options: LocalStorageTokenStoreOptions = {}): TokenStore {
  const key = options.key ?? "playfield.tokens";
  const storage = (): StorageLike | undefined => options.storage ?? (globalThis as { localStorage?: StorageLike }).localStorage;
  return {
    get() {
      const text = storage()?.getItem(key);
      if (!text) return undefined;
      try {
        const value: unknown = JSON.parse(text);
        return isTokens(value) ? value : undefined;
      } catch {
        return undefined;
      }
    },
    set(tokens) {
      storage()?.setItem(key, JSON.stringify(tokens));
    },
    clear() {
      storage()?.removeItem(key);
    },
  };
}
