import { http, HttpResponse } from "msw";
import type { setupServer } from "msw/node";
import { authJson, bearerOf, methodUrl } from "./helpers.js";

/** Options of the fake identity endpoints. */
export interface FakeAuthOptions {
  /** Lifetime written in every AuthResponse. */
  expiresInSeconds?: number;
  /** Awaited by every handler before it answers: a fast-check scheduler's hook, to order the answers. */
  beforeAnswer?: (label: string) => Promise<unknown>;
}

/**
 * Installs SignIn, Refresh and GetMe handlers that behave as the server does:
 * generation n holds `access-n` and `refresh-n`; Refresh rotates, so a
 * refresh token presented twice is refused; GetMe refuses any other access
 * token, and the current one too after `expireAccess()`.
 */
export function useFakeAuth(server: ReturnType<typeof setupServer>, options: FakeAuthOptions = {}) {
  const state = {
    generation: 1,
    accessExpired: false,
    /** The refresh token of every Refresh call, in order. */
    refreshes: [] as string[],
    /** The Authorization header of every GetMe call, in order. */
    getMeAuth: [] as (string | null)[],
    /** The server ends the current access token early (as a password change elsewhere does). */
    expireAccess() { state.accessExpired = true; },
  };
  const wait = (label: string) => options.beforeAnswer?.(label);
  const unauthenticated = (message: string) => HttpResponse.json({ code: "unauthenticated", message }, { status: 401 });
  server.use(
    http.post(methodUrl("IdentityService", "SignIn"), () => HttpResponse.json(authJson(state.generation, options.expiresInSeconds))),
    http.post(methodUrl("IdentityService", "Refresh"), async ({ request }) => {
      const { refreshToken } = (await request.json()) as { refreshToken: string };
      state.refreshes.push(refreshToken);
      await wait(`refresh ${refreshToken}`);
      if (refreshToken !== `refresh-${state.generation}`) return unauthenticated("refresh token is not valid");
      state.generation += 1;
      state.accessExpired = false;
      return HttpResponse.json(authJson(state.generation, options.expiresInSeconds));
    }),
    http.post(methodUrl("IdentityService", "GetMe"), async ({ request }) => {
      const auth = bearerOf(request);
      state.getMeAuth.push(auth);
      await wait(`getMe ${auth}`);
      if (auth !== `Bearer access-${state.generation}` || state.accessExpired) return unauthenticated("token is not valid");
      return HttpResponse.json({ user: { id: "u1", username: "ada" } });
    }),
  );
  return state;
}
