import type { UnaryRequest, UnaryResponse } from "./interceptor.js";

/** An `AuthResponse` as the client reads it: new tokens and their lifetime. */
export interface AuthAnswer {
  accessToken: string;
  refreshToken: string;
  expiresInSeconds: number;
}

/** What a token rule may do to the tokens a client holds. */
export interface TokenActions {
  /** The refresh token held, or `""`. */
  refreshToken(): string;
  keep(answer: AuthAnswer): void;
  clear(): void;
  keepGameToken(token: string): void;
}

/** What a method does to the client's tokens. */
export interface TokenRule {
  /** The request's `refreshToken`, when left out, is the one held. */
  fillRefreshToken?: boolean;
  /** Runs on the method's successful answer. */
  after(response: UnaryResponse, request: UnaryRequest, tokens: TokenActions): void;
}

const keep: TokenRule = { after: (response, _request, tokens) => tokens.keep(response.message as unknown as AuthAnswer) };

/**
 * The methods that change the tokens a client holds, by `Service/Method`:
 * answers with new tokens are kept; sign-out and deletion drop them.
 * RevokeDevice signs out another device, so it keeps this one's tokens.
 */
export const TOKEN_RULES: Readonly<Record<string, TokenRule>> = {
  "IdentityService/SignUp": keep,
  "IdentityService/SignIn": keep,
  "IdentityService/StartGuest": keep,
  "IdentityService/UpgradeGuest": keep,
  "IdentityService/RedeemHandoff": keep,
  "IdentityService/Refresh": { fillRefreshToken: true, after: keep.after },
  "IdentityService/ChangePassword": {
    after: (response, _request, tokens) => tokens.keep(response.message.auth as AuthAnswer),
  },
  "IdentityService/SignOut": {
    fillRefreshToken: true,
    // Signing out another device's refresh token leaves this one signed in.
    after: (_response, request, tokens) => {
      if (request.message.refreshToken === tokens.refreshToken()) tokens.clear();
    },
  },
  "IdentityService/SignOutEverywhere": { after: (_response, _request, tokens) => tokens.clear() },
  "IdentityService/DeleteAccount": { after: (_response, _request, tokens) => tokens.clear() },
  "SessionService/Join": {
    after: (response, _request, tokens) => {
      const token = response.message.gameToken;
      if (typeof token === "string" && token !== "") tokens.keepGameToken(token);
    },
  },
};

/** The rule of a method, looked up by the last part of its service name and its wire name. */
export function tokenRuleOf(service: string, method: string): TokenRule | undefined {
  return TOKEN_RULES[`${service.slice(service.lastIndexOf(".") + 1)}/${method}`];
}
