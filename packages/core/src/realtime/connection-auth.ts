import type { AuthRule } from "../api/auth-level.js";

/**
 * Who may open a realtime connection: an account or guest access token;
 * game and scoped tokens are refused (4001). Checked like an API call's
 * token (signature, expiry, the device still signed in, the account live),
 * on `auth` and again on every server ping.
 */
export const REALTIME_AUTH: AuthRule = { name: "the realtime connection", auth: "guest", scopes: [] };
