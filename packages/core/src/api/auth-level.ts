/**
 * AuthLevel says who may call a method, as the spec's endpoint tables do.
 *
 * - `none`: anyone; a token, if sent, is ignored.
 * - `optional`: anyone; a valid token personalises the answer.
 * - `guest`: "Account or guest": any signed-in user.
 * - `account`: a full account; guests get `permission_denied`.
 * - `game`: a game token from SessionService.Join.
 */
export const AuthLevel = {
  None: "none",
  Optional: "optional",
  Guest: "guest",
  Account: "account",
  Game: "game",
} as const;
export type AuthLevel = (typeof AuthLevel)[keyof typeof AuthLevel];

/** Scoped tokens from IssueScopedToken; each reaches only the methods that list it. */
export const Scope = {
  Studio: "studio",
  Avatar: "avatar",
} as const;
export type Scope = (typeof Scope)[keyof typeof Scope];

/**
 * Who may use an endpoint, as the server's auth check reads it: a method
 * descriptor is one, and so is the realtime connection's rule.
 */
export interface AuthRule {
  /** What the endpoint is called in refusals: `GetMe`, `the realtime connection`. */
  name: string;
  auth: AuthLevel;
  /** Scoped tokens that may use it besides the auth level's callers. */
  scopes: readonly Scope[];
}
