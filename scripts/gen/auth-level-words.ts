import type { AuthLevel } from "@playfield/core";

/** AuthLevelWords names each auth level as the spec's endpoint tables do. */
export const authLevelWords: Record<AuthLevel, string> = {
  none: "None",
  optional: "Optional",
  guest: "Account or guest",
  account: "Account",
  game: "Game token",
};

/** Who may call a method at each auth level, for the API reference. */
export const authLevelMeaning: Record<AuthLevel, string> = {
  none: "Anyone. A token, if sent, is ignored.",
  optional: "Anyone. A valid access token personalises the answer (fields such as `favorited` or `owned`).",
  guest: "Any signed-in user: an account or a guest, with an access token.",
  account: "A signed-in account with an access token; guests get `permission_denied`.",
  game: "A game token from `SessionService.Join`, valid while its player is in that session; after the player leaves, `permission_denied`.",
};
