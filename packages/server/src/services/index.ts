import type { RawRoute } from "../routes/route.js";
import type { Implementations } from "../rpc/router.js";
import type { ServerDeps } from "../server-deps.js";
import { chatService } from "./chat/chat-service.js";
import { datastoreService } from "./datastore/datastore-service.js";
import { identityService } from "./identity/identity-service.js";
import { socialService } from "./social/social-service.js";
import { avatarService } from "./avatar/avatar-service.js";
import { headshotRoute } from "./avatar/headshot.js";
import { safetyService } from "./safety/safety-service.js";
import { catalogService } from "./catalog/catalog-service.js";
import { contentRoute } from "./catalog/content-route.js";
import { sessionService } from "./session/session-service.js";
import { economyService } from "./economy/economy-service.js";
import { creatorService } from "./creator/creator-service.js";
import { checkoutRoute } from "./economy/checkout.js";

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
