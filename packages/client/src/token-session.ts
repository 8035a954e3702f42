import type { Clock } from "@playfield/core";
import { Code, PlayfieldError } from "@playfield/core/wire";
import { abortable } from "./deadline.js";
import type { Interceptor, UnaryFn, UnaryRequest, UnaryResponse } from "./interceptor.js";
import { tokenRuleOf, type AuthAnswer, type TokenActions } from "./token-rules.js";
import type { Tokens, TokenStore } from "./token-store.js";

/** Tokens to hand to a client: the refresh token and expiry may be left out. */
export interface TokensInit {
  accessToken: string;
  refreshToken?: string;
  /** Milliseconds since the epoch; 0 or left out when unknown. */
  expiresAt?: number;
}

/** Called with the new tokens (or `undefined` when signed out) on every change. */
export type TokenListener = (tokens: Tokens | undefined) => void;

/**
 * ClientAuth is the client's token state: `client.auth`.
 *
 * @example
 * const stop = client.auth.subscribe((tokens) => render(tokens !== undefined));
 * if (!(await client.auth.isSignedIn())) await client.identity.startGuest();
 */
export interface ClientAuth {
  /** Whether the client holds an access token. */
  isSignedIn(): Promise<boolean>;
  /** The tokens held, if any. */
  getTokens(): Promise<Tokens | undefined>;
  /** Replaces the tokens held (for example with a scoped token an embedding page passed on); `undefined` signs out locally. */
  setTokens(tokens: TokensInit | undefined): Promise<void>;
  /** Forgets the tokens here, with no call to the server (see `identity.signOut` for that). */
  clear(): Promise<void>;
  /** Exchanges the refresh token for new tokens now; calls made meanwhile share this refresh. */
  refresh(): Promise<Tokens>;
  /** Listens to token changes; returns the function that stops listening. */
  subscribe(listener: TokenListener): () => void;
  /** The game token of the last `session.join`, sent to `game` methods (the datastore). */
  getGameToken(): string | undefined;
  setGameToken(token: string | undefined): void;
}

/** Options of `createTokenSession`. */
export interface TokenSessionOptions {
  store: TokenStore;
  clock: Clock;
  /** Refresh this long before the access token's expiry. */
  skewMs: number;
  /** Calls `IdentityService.Refresh` with the given refresh token. */
  refresh: (refreshToken: string) => Promise<UnaryResponse>;
}

/** A token session: the `client.auth` view plus the interceptor that puts tokens on calls. */
export interface TokenSession extends ClientAuth {
  /** Adds the bearer token, refreshes it when expired or refused, and applies the methods' token rules. */
  interceptor: Interceptor;
}

// Codes for which a refresh is worth retrying later: the refresh token was not refused.
const TRANSIENT = new Set<string>([Code.Unavailable, Code.DeadlineExceeded, Code.Canceled, Code.ResourceExhausted, Code.Internal]);

function withBearer(request: UnaryRequest, token: string): UnaryRequest {
  const header = new Headers(request.header);
  header.set("authorization", `Bearer ${token}`);
  return { ...request, header };
}

const isRefused = (reason: unknown) => reason instanceof PlayfieldError && reason.isWireError && reason.code === Code.Unauthenticated;

/**
 * Creates the token session of a client. Tokens live in memory, loaded from
 * the store at the first use and written through it on every change, so that
 * deciding whether to refresh is synchronous and concurrent calls share one
 * refresh (a rotated refresh token used twice would end the device session).
 */
export function createTokenSession(options: TokenSessionOptions): TokenSession {
  const { store, clock, skewMs } = options;
  let current: Tokens | undefined;
  let gameToken: string | undefined;
  let changed = false;
  let loading: Promise<void> | undefined;
  let writing: Promise<void> = Promise.resolve();
  let refreshing: Promise<Tokens> | undefined;
  const listeners = new Set<TokenListener>();

  const load = () => (loading ??= (async () => {
    try {
      const stored = await store.get();
      // A change made while the store was read is newer than what it held.
      if (!changed) current = stored ?? undefined;
    } catch {
      // An unreadable store reads as signed out.
    }
  })());

  function update(next: Tokens | undefined): Promise<void> {
    changed = true;
    current = next;
    if (!next) gameToken = undefined;
    // Writes go in order, and a failing store does not fail the call that changed the tokens.
    writing = writing.then(() => (next ? store.set(next) : store.clear())).catch(() => undefined);
    for (const listener of listeners) listener(next);
    return writing;
  }

  const fromAnswer = (answer: AuthAnswer): Tokens => ({
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken,
    expiresAt: answer.expiresInSeconds > 0 ? clock.now() + answer.expiresInSeconds * 1000 : 0,
  });

  async function runRefresh(): Promise<Tokens> {
    const held = current;
    if (!held?.refreshToken) throw new PlayfieldError(Code.Unauthenticated, "no refresh token held");
    let response: UnaryResponse;
    try {
      response = await options.refresh(held.refreshToken);
    } catch (reason) {
      const error = PlayfieldError.from(reason);
      if (TRANSIENT.has(error.code)) throw error;
      if (current === held) void update(undefined);
      throw new PlayfieldError(Code.Unauthenticated, `refresh failed: ${error.rawMessage}`, { cause: error, isWireError: error.isWireError });
    }
    const tokens = fromAnswer(response.message as unknown as AuthAnswer);
    void update(tokens);
    return tokens;
  }

  /** The one refresh in flight, started if there is none. */
  const sharedRefresh = () => (refreshing ??= runRefresh().finally(() => { refreshing = undefined; }));

  const actions: TokenActions = {
    refreshToken: () => current?.refreshToken ?? "",
    keep: (answer) => {
      if (answer && typeof answer.accessToken === "string" && answer.accessToken !== "") void update(fromAnswer(answer));
    },
    clear: () => void update(undefined),
    keepGameToken: (token) => { gameToken = token; },
  };

  async function authorize(next: UnaryFn, request: UnaryRequest): Promise<UnaryResponse> {
    // `none` methods get no token; a call that brought its own Authorization keeps it.
    if (request.method.auth === "none" || request.header.has("authorization")) return next(request);
    if (request.method.auth === "game") return next(gameToken ? withBearer(request, gameToken) : request);

    let tokens = current;
    if (tokens?.refreshToken && tokens.expiresAt > 0 && clock.now() >= tokens.expiresAt - skewMs) {
      tokens = await abortable(sharedRefresh(), request.signal);
    }
    if (!tokens) return next(request);
    try {
      return await next(withBearer(request, tokens.accessToken));
    } catch (reason) {
      if (!isRefused(reason) || !current?.refreshToken) throw reason;
      // Another call may have refreshed already: then its tokens serve.
      const fresh = current.accessToken !== tokens.accessToken ? current : await abortable(sharedRefresh(), request.signal);
      return next(withBearer(request, fresh.accessToken));
    }
  }

  const interceptor: Interceptor = (next) => async (request) => {
    await load();
    const rule = tokenRuleOf(request.method.service, request.method.name);
    if (rule?.fillRefreshToken && !request.message.refreshToken && current?.refreshToken) {
      request = { ...request, message: { ...request.message, refreshToken: current.refreshToken } };
    }
    const response = await authorize(next, request);
    rule?.after(response, request, actions);
    return response;
  };

  return {
    interceptor,
    async isSignedIn() {
      await load();
      return current !== undefined && current.accessToken !== "";
    },
    async getTokens() {
      await load();
      return current;
    },
    setTokens: (tokens) => update(tokens && { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken ?? "", expiresAt: tokens.expiresAt ?? 0 }),
    clear: () => update(undefined),
    async refresh() {
      await load();
      return sharedRefresh();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
    getGameToken: () => gameToken,
    setGameToken: (token) => { gameToken = token; },
  };
}
