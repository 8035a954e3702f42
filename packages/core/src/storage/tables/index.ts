/*
 * Every table of the platform and its indexes, declared once, one file per
 * service. Adapters read `allTables` to create tables and indexes; services
 * use the same definitions to read and write. Rows are plain JSON data,
 * but for the bytes of stored blobs (blob_bytes).
 */
import * as catalog from "./catalog.js";
import * as chat from "./chat.js";
import * as economy from "./economy.js";
import * as datastore from "./datastore.js";
import * as identity from "./identity.js";
import * as session from "./session.js";
import * as social from "./social.js";
import * as server from "./server.js";
import * as admin from "./admin.js";

export * from "./catalog.js";
export * from "./chat.js";
export * from "./economy.js";
export * from "./datastore.js";
export * from "./identity.js";
export * from "./session.js";
export * from "./social.js";
export * from "./server.js";
export * from "./admin.js";

/** Every table, for adapters that create them up front. */
export const allTables = [
  ...Object.values(identity),
  ...Object.values(catalog),
  ...Object.values(session),
  ...Object.values(social),
  ...Object.values(economy),
  ...Object.values(datastore),
  ...Object.values(chat),
  ...Object.values(server),
  ...Object.values(admin),
].filter((t): t is import("../port.js").TableDef => typeof t === "object" && t !== null && "primaryKey" in t);
