import type { RawRoute } from "../fetch-handler.js";
import type { Implementations } from "../router.js";
import type { ServerDeps } from "../server-deps.js";
import { chatService } from "./chat.js";
import { datastoreService } from "./datastore.js";
import { identityService } from "./identity.js";
import { socialService } from "./social.js";
import { avatarService } from "./avatar.js";
import { headshotRoute } from "./avatar-headshot.js";
import { safetyService } from "./safety.js";
import { catalogService } from "./catalog.js";
import { contentRoute } from "./content-store.js";
import { sessionService } from "./session.js";
import { economyService } from "./economy.js";
import { creatorService } from "./creator.js";
import { checkoutRoute } from "./economy-checkout.js";

/*
 * The registry of service implementations: one line per service. Methods of
 * services not listed (or left out of one) answer `unimplemented` after the
 * auth check.
 */
export const implementations: Implementations = {
  identity: identityService,
  social: socialService,
  catalog: catalogService,
  session: sessionService,
  economy: economyService,
  creator: creatorService,
  avatar: avatarService,
  chat: chatService,
  safety: safetyService,
  datastore: datastoreService,
};

/**
 * Non-RPC routes services serve (content blobs, checkout pages, headshots),
 * built with the server's parts. The health and key routes are the server's own.
 */
export function serviceRoutes(deps: ServerDeps): RawRoute[] {
  return [
    checkoutRoute(deps),
    headshotRoute(deps),
    contentRoute(deps),
  ];
}
