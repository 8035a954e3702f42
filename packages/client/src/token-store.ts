/** The tokens a signed-in client holds. */
export interface Tokens {
  /** Bearer token of API calls (short-lived). */
  accessToken: string;
  /** Exchanged for new tokens by `IdentityService.Refresh`; empty when the client cannot refresh (a scoped token, say). */
  refreshToken: string;
  /** When the access token expires, in milliseconds since the epoch; 0 when unknown. */
  expiresAt: number;
}

/**
 * TokenStore is where a client keeps its tokens between runs. Each method may
 * answer at once or with a promise. The client reads the store once, at its
 * first call, and writes every change through it.
 *
 * @example
 * const client = createClient({ baseUrl, tokenStore: createLocalStorageTokenStore() });
 */
export interface TokenStore {
  get(): Tokens | undefined | Promise<Tokens | undefined>;
  set(tokens: Tokens): void | Promise<void>;
  clear(): void | Promise<void>;
}

/** Creates a store that keeps tokens in memory: the default, forgotten when the process ends. */
export function createMemoryTokenStore(initial?: Tokens): TokenStore {
  let tokens = initial;
  return {
    get: () => tokens,
    set: (next) => { tokens = next; },
    clear: () => { tokens = undefined; },
  };
}

/** Whether a value read back from storage has the shape of `Tokens`. */
export function isTokens(value: unknown): value is Tokens {
  if (typeof value !== "object" || value === null) return false;
  const { accessToken, refreshToken, expiresAt } = value as Record<string, unknown>;
  return typeof accessToken === "string" && typeof refreshToken === "string" && typeof expiresAt === "number";
}
