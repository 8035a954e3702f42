import { AvatarService } from "./avatar-service.js";
import { CatalogService } from "./catalog-service.js";
import { ChatService } from "./chat-service.js";
import { CreatorService } from "./creator-service.js";
import { DatastoreService } from "./datastore-service.js";
import { EconomyService } from "./economy-service.js";
import { IdentityService } from "./identity-service.js";
import { SafetyService } from "./safety-service.js";
import { SessionService } from "./session-service.js";
import { SocialService } from "./social-service.js";
import type { MethodDesc, ServiceDesc } from "./define-service.js";
import { addMessage, type ShapeTable } from "../wire/wire-shape.js";

/** The whole platform API: every service, in the spec's order. */
export const services = {
  identity: IdentityService,
  social: SocialService,
  catalog: CatalogService,
  session: SessionService,
  economy: EconomyService,
  creator: CreatorService,
  avatar: AvatarService,
  chat: ChatService,
  safety: SafetyService,
  datastore: DatastoreService,
} as const;
export type Services = typeof services;

/** The proto package of every service. */
export const API_PACKAGE = "svc.platform.v1";

/** Every method of every service, in order. */
export function allMethods(): MethodDesc[] {
  return Object.values(services).flatMap((service: ServiceDesc) => Object.values(service.methods) as MethodDesc[]);
}

/** The wire shape of every message the API uses, by name. */
export function shapeTable(): ShapeTable {
  const table: ShapeTable = {};
  for (const method of allMethods()) {
    addMessage(method.input, table);
    addMessage(method.output, table);
  }
  return table;
}
