import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { messageArbitrary } from "./support/wire-arbitrary.js";
import {
  addMessage,
  CatalogService,
  CreatorService,
  EconomyService,
  fillMessage,
  messageName,
  readMessage,
  schemas,
  SessionService,
  writeMessage,
  type AnyMessage,
  type FieldShape,
  type MessageShape,
  type ServiceDesc,
  type ShapeTable,
} from "../src/index.js";

/*
 * The endpoint tables below are copied from the spec (000, "Endpoints") as
 * they stand, so that the descriptors are checked against the spec's text,
 * not against themselves.
 */
const CATALOG_TABLE = `
| CreateExperience | Account | CreateExperienceRequest | Experience | Also callable with scoped token \`studio\`. |
| UpdateExperience | Account | UpdateExperienceRequest | Experience | Also \`studio\`. |
| PublishVersion | Account | PublishVersionRequest | PlaceVersion | New immutable version of the start place; goes live at once. Also \`studio\`. |
| ListVersions | Account | ListVersionsRequest | ListVersionsResponse | Newest first; creator only; also says which is live. |
| SetLiveVersion | Account | SetLiveVersionRequest | Experience | Rollback or roll-forward to an existing version; creator only. Players joining afterwards get it; running sessions keep their version. |
| GetExperience | Optional | ExperienceRef | Experience | Also \`studio\`. |
| ListExperiences | Optional | ListExperiencesRequest | ListExperiencesResponse | |
| ListMyExperiences | Account | empty | ListExperiencesResponse | |
| Favorite | Account or guest | FavoriteRequest | FavoriteResponse | |
| Vote | Account | VoteRequest | VoteResponse | Vote 1, -1, or 0 to clear. |
| UploadContent | Account | UploadContentRequest | UploadContentResponse | One blob (scene, texture, thumbnail) up to 8 MiB; returns a content-addressed URL to use in PublishVersion / UpdateExperience. Also \`studio\`. |
| AddTester | Account | TesterRequest | ListTestersResponse | Private experiences are visible and joinable by their testers. Also \`studio\`. |
| RemoveTester | Account | TesterRequest | ListTestersResponse | Also \`studio\`. |
| ListTesters | Account | ExperienceRef | ListTestersResponse | Also \`studio\`. |
`;

const SESSION_TABLE = `
| Join | Account or guest | JoinRequest | JoinResponse | Empty \`sessionId\` = matchmake. Returns the session's game token. |
| Leave | Account or guest | LeaveRequest | LeaveResponse | |
| Heartbeat | Account or guest | HeartbeatRequest | HeartbeatResponse | |
| ListSessions | Optional | ListSessionsRequest | ListSessionsResponse | Signed-in callers get personalised fields. |
| GetSession | Account or guest | GetSessionRequest | SessionDetail | Live roster of one session. |
| InviteToSession | Account | InviteToSessionRequest | InviteToSessionResponse | Invites a friend into the caller's session; the friend receives a \`game_invite\` realtime message and may join directly. |
`;

const ECONOMY_TABLE = `
| GetWallet | Account | empty | Wallet | |
| ListTransactions | Account | ListTransactionsRequest | ListTransactionsResponse | |
| ListCreditPacks | None | ListCreditPacksRequest | ListCreditPacksResponse | |
| StartTopUp | Account | StartTopUpRequest | StartTopUpResponse | Starts a top-up with a payment provider; returns the checkout URL. |
| ListItems | Optional | ListItemsRequest | ListItemsResponse | |
| GetItem | Optional | ItemRef | Item | |
| CreateItem | Account | CreateItemRequest | Item | |
| UpdateItem | Account | UpdateItemRequest | Item | Creator edits name, description, price, or delists. |
| BuyItem | Account | BuyItemRequest | BuyItemResponse | Rejected if the price changed from \`expectedPrice\`; \`requestId\` is the idempotency key. |
| ListInventory | Account | ListInventoryRequest | ListInventoryResponse | |
`;

// "CreatorService (all Account)": the spec's table has no Auth column.
const CREATOR_TABLE = `
| GetOverview | empty | CreatorOverview | |
| GetExperienceAnalytics | ExperienceAnalyticsRequest | ExperienceAnalytics | |
| ListSales | ListSalesRequest | ListSalesResponse | |
| ListMyItems | ListMyItemsRequest | ListMyItemsResponse | |
| ListUploads | empty | ListUploadsResponse | |
| RequestPayout | RequestPayoutRequest | Payout | Cash-out request; local builds only record it. |
| ListPayouts | empty | ListPayoutsResponse | |
`;

/** The spec's sentences naming the empty request types of each service. */
const EMPTY_REQUESTS: Record<string, readonly string[]> = {
  catalog: ["ListMyExperiencesRequest"],
  session: [],
  economy: ["GetWalletRequest"],
  creator: ["CreatorOverviewRequest", "ListUploadsRequest", "ListPayoutsRequest"],
};

/** The spec's auth words and the descriptor's levels ("Authentication", 3). */
const AUTH_WORDS = { None: "none", Optional: "optional", "Account or guest": "guest", Account: "account" } as const;

interface SpecRow {
  method: string;
  auth: string;
  request: string;
  response: string;
  behavior: string;
}

function parseTable(table: string, allAccount = false): SpecRow[] {
  return table.trim().split("\n").map((line) => {
    const cells = line.split("|").slice(1, -1).map((c) => c.trim());
    const [method, auth, request, response, behavior] = allAccount ? [cells[0], "Account", ...cells.slice(1)] : cells;
    return { method: method!, auth: auth!, request: request!, response: response!, behavior: behavior ?? "" };
  });
}

const SERVICES: [name: string, service: ServiceDesc, rows: SpecRow[]][] = [
  ["catalog", CatalogService, parseTable(CATALOG_TABLE)],
  ["session", SessionService, parseTable(SESSION_TABLE)],
  ["economy", EconomyService, parseTable(ECONOMY_TABLE)],
  ["creator", CreatorService, parseTable(CREATOR_TABLE, true)],
];

describe.each(SERVICES)("%s service descriptor", (name, service, rows) => {
  const methods = Object.values(service.methods);

  it("should have one method per row of the spec's table, in the spec's order", () => {
    expect(methods.map((m) => m.name)).toEqual(rows.map((r) => r.method));
    for (const m of methods) expect(m.path).toBe(`/svc.platform.v1.${service.typeName.split(".").pop()}/${m.name}`);
  });

  it.each(rows)("should give $method the spec's auth level ($auth)", (row) => {
    const method = methods.find((m) => m.name === row.method)!;
    expect(method.auth).toBe(AUTH_WORDS[row.auth as keyof typeof AUTH_WORDS]);
  });

  it.each(rows)("should let studio tokens call $method only if the spec says so", (row) => {
    const method = methods.find((m) => m.name === row.method)!;
    expect(method.scopes).toEqual(row.behavior.includes("`studio`") ? ["studio"] : []);
  });

  it.each(rows)("should take $request and answer $response in $method", (row) => {
    const method = methods.find((m) => m.name === row.method)!;
    expect(messageName(method.output)).toBe(row.response);
    if (row.request === "empty") {
      expect(EMPTY_REQUESTS[name]).toContain(messageName(method.input));
      expect(Object.keys(method.input.shape)).toEqual([]);
    } else {
      expect(messageName(method.input)).toBe(row.request);
    }
  });

  it("should have a one-line summary for every method", () => {
    for (const m of methods) expect(m.summary).toMatch(/^[^\n]{10,200}$/);
  });
});

describe("studio scope", () => {
  it("should cover exactly the Catalog calls listed in the spec's Authentication section", () => {
    const studio = [CatalogService, SessionService, EconomyService, CreatorService]
      .flatMap((s) => Object.values(s.methods as ServiceDesc["methods"]))
      .filter((m) => m.scopes.includes("studio"))
      .map((m) => m.name);
    expect(studio.sort()).toEqual(["CreateExperience", "UpdateExperience", "PublishVersion", "GetExperience", "UploadContent", "AddTester", "RemoveTester", "ListTesters"].sort());
  });
});

/** Every message the four services use, by name. */
function serviceTable(): ShapeTable {
  const table: ShapeTable = {};
  for (const [, service] of SERVICES) {
    for (const m of Object.values(service.methods)) {
      addMessage(m.input, table);
      addMessage(m.output, table);
    }
  }
  return table;
}

const table = serviceTable();
/** Every exported message schema by its message name (nested ones included). */
/** A field may be left out when its schema lets it be absent (explicit presence: the codec never fills it). */
const mayBeAbsent = (message: MessageShape, field: string) =>
  (zodByName.get(message.name)!.shape[field] as z.ZodType).safeParse(undefined).success;

const zodByName = new Map<string, AnyMessage>(
  Object.values(schemas as unknown as Record<string, unknown>)
    .filter((v): v is AnyMessage => v instanceof z.ZodObject)
    .map((schema) => [messageName(schema), schema]),
);
const responseNames = [...new Set(SERVICES.flatMap(([, service]) => Object.values(service.methods).map((m) => messageName(m.output))))];

describe("proto3 JSON codec on these services' messages", () => {
  it("should write an Experience with int64 as decimal strings and defaults left out", () => {
    const experience = schemas.Experience.parse({
      id: "e1",
      title: "Obby",
      creator: { id: "u1", username: "maker" },
      visibility: "public",
      playingNow: 12,
      visits: 9_007_199_254_740_991,
      liveVersion: { id: "v3", number: 3, contentUrls: { web: "https://cdn/x.json" }, status: "live" },
      maxPlayers: 20,
      myVote: -1,
    });
    expect(writeMessage(table, table.Experience!, experience)).toEqual({
      id: "e1",
      title: "Obby",
      creator: { id: "u1", username: "maker" },
      visibility: "public",
      playingNow: "12",
      visits: "9007199254740991",
      liveVersion: { id: "v3", number: "3", contentUrls: { web: "https://cdn/x.json" }, status: "live" },
      maxPlayers: 20,
      myVote: -1,
    });
  });

  it("should read a ListVersions request in snake_case with an int64 string and unknown fields", () => {
    const json = readMessage(table, table.ListVersionsRequest!, { experience_id: "e1", before_number: "40", limit: 10, later_field: true });
    expect(schemas.ListVersionsRequest.parse(json)).toEqual({ experienceId: "e1", limit: 10, beforeNumber: 40 });
  });

  it("should read an omitted nested message as absent, not as an empty message", () => {
    const filled = fillMessage(table, table.Experience!, { id: "e1" });
    expect(filled).not.toHaveProperty("liveVersion");
    expect(filled.playingNow).toBe(0);
  });

  it("should give back every response value after write, JSON text and fill, and zod should accept it", () => {
    for (const name of responseNames) {
      const shape = table[name]!;
      const schema = zodByName.get(name)!;
      fc.assert(
        fc.property(messageArbitrary(table, shape, { mayBeAbsent }), (value) => {
          const wire = JSON.parse(JSON.stringify(writeMessage(table, shape, value)));
          expect(fillMessage(table, shape, wire)).toEqual(value);
          expect(schema.parse(value)).toEqual(value);
        }),
        { numRuns: 40 },
      );
    }
  });
});

/** A request schema, a valid request, and the change that breaks it. */
type Case = [schema: string, valid: Record<string, unknown>, change: Record<string, unknown>, path: (string | number)[], message: string | null];

const long = (n: number) => "x".repeat(n);
const KINDS_RULE = "one of avatar_hat, avatar_shirt, avatar_emote, game_pass, developer_product";

const INVALID: Case[] = [
  ["CreateExperienceRequest", { title: "Obby", hostingTier: "peer", maxPlayers: 10 }, { title: undefined }, ["title"], "required"],
  ["CreateExperienceRequest", { title: "Obby", hostingTier: "peer", maxPlayers: 10 }, { title: long(51) }, ["title"], "at most 50 characters"],
  ["CreateExperienceRequest", { title: "Obby", hostingTier: "peer", maxPlayers: 10 }, { hostingTier: "cloud" }, ["hostingTier"], "one of solo, peer, edge, dedicated"],
  ["CreateExperienceRequest", { title: "Obby", hostingTier: "peer", maxPlayers: 10 }, { hostingTier: undefined }, ["hostingTier"], "one of solo, peer, edge, dedicated"],
  ["CreateExperienceRequest", { title: "Obby", hostingTier: "peer", maxPlayers: 10 }, { maxPlayers: undefined }, ["maxPlayers"], "1 to 100"],
  ["CreateExperienceRequest", { title: "Obby", hostingTier: "peer", maxPlayers: 10 }, { maxPlayers: 101 }, ["maxPlayers"], "1 to 100"],
  ["CreateExperienceRequest", { title: "Obby", hostingTier: "peer", maxPlayers: 10 }, { maxPlayers: 2.5 }, ["maxPlayers"], null],
  ["CreateExperienceRequest", { title: "Obby", hostingTier: "peer", maxPlayers: 10 }, { description: long(1001) }, ["description"], "at most 1000 characters"],
  ["UpdateExperienceRequest", { experienceId: "e1" }, { experienceId: "" }, ["experienceId"], "required"],
  ["UpdateExperienceRequest", { experienceId: "e1" }, { experienceId: long(65) }, ["experienceId"], "at most 64 characters"],
  ["UpdateExperienceRequest", { experienceId: "e1" }, { visibility: "hidden" }, ["visibility"], "one of draft, public, private"],
  ["ExperienceRef", { experienceId: "e1" }, { experienceId: undefined }, ["experienceId"], "required"],
  ["VoteRequest", { experienceId: "e1", vote: 1 }, { vote: 2 }, ["vote"], "one of 1, -1, 0"],
  ["ListExperiencesRequest", {}, { sort: "hot" }, ["sort"], "one of popular, new, top_rated, friends, search, recent, up_and_coming, trending, testing"],
  ["ListExperiencesRequest", {}, { limit: 101 }, ["limit"], "at most 100"],
  ["ListExperiencesRequest", {}, { limit: -1 }, ["limit"], "must not be negative"],
  ["ListVersionsRequest", { experienceId: "e1" }, { limit: 201 }, ["limit"], "at most 200"],
  ["ListVersionsRequest", { experienceId: "e1" }, { beforeNumber: -1 }, ["beforeNumber"], "must not be negative"],
  ["PublishVersionRequest", { experienceId: "e1" }, { budgetReportJson: "{\"drawCalls\":" }, ["budgetReportJson"], "must be JSON text (or empty)"],
  ["PublishVersionRequest", { experienceId: "e1" }, { contentUrls: { web: long(2049) } }, ["contentUrls", "web"], "at most 2048 characters"],
  ["SetLiveVersionRequest", { experienceId: "e1", versionId: "v1" }, { versionId: "" }, ["versionId"], "required"],
  ["UploadContentRequest", { data: "AAEC", contentType: "image/png" }, { data: "not base64!" }, ["data"], null],
  ["UploadContentRequest", { data: "AAEC", contentType: "image/png" }, { contentType: "" }, ["contentType"], "required"],
  ["JoinRequest", { experienceId: "e1" }, { experienceId: "" }, ["experienceId"], "required"],
  ["JoinRequest", { experienceId: "e1" }, { sessionId: long(65) }, ["sessionId"], "at most 64 characters"],
  ["JoinRequest", { experienceId: "e1" }, { platform: "switch" }, ["platform"], "one of web, macos, windows, linux, ios, android (or empty)"],
  ["JoinRequest", { experienceId: "e1" }, { platform: "constructor" }, ["platform"], "one of web, macos, windows, linux, ios, android (or empty)"],
  ["HeartbeatRequest", { sessionId: "s1" }, { sessionId: "" }, ["sessionId"], "required"],
  ["InviteToSessionRequest", { sessionId: "s1", userId: "u2" }, { userId: undefined }, ["userId"], "required"],
  ["ListSessionsRequest", { experienceId: "e1" }, { experienceId: "" }, ["experienceId"], "required"],
  ["StartTopUpRequest", { packId: "p1" }, { packId: "" }, ["packId"], "required"],
  ["StartTopUpRequest", { packId: "p1" }, { method: "paypal" }, ["method"], "one of card, sandbox, usdc, store_apple, store_google"],
  ["CreateItemRequest", { kind: "avatar_hat", name: "Cap", price: 10 }, { kind: "avatar_cape" }, ["kind"], KINDS_RULE],
  ["CreateItemRequest", { kind: "avatar_hat", name: "Cap", price: 10 }, { kind: undefined }, ["kind"], KINDS_RULE],
  ["CreateItemRequest", { kind: "avatar_hat", name: "Cap", price: 10 }, { name: "" }, ["name"], "required"],
  ["CreateItemRequest", { kind: "avatar_hat", name: "Cap", price: 10 }, { price: -1 }, ["price"], "must not be negative"],
  ["CreateItemRequest", { kind: "avatar_hat", name: "Cap", price: 10 }, { price: 1_000_000_001 }, ["price"], "at most 1000000000"],
  ["UpdateItemRequest", { itemId: "i1" }, { price: -2 }, ["price"], "at least -1"],
  ["UpdateItemRequest", { itemId: "i1" }, { status: "sold" }, ["status"], "one of listed, delisted"],
  ["ItemRef", { itemId: "i1" }, { itemId: "" }, ["itemId"], "required"],
  ["BuyItemRequest", { itemId: "i1", expectedPrice: 10 }, { expectedPrice: -10 }, ["expectedPrice"], "must not be negative"],
  ["BuyItemRequest", { itemId: "i1", expectedPrice: 10 }, { requestId: long(129) }, ["requestId"], "at most 128 characters"],
  ["ListItemsRequest", {}, { kind: "hat" }, ["kind"], KINDS_RULE],
  ["ListInventoryRequest", {}, { kind: "hat" }, ["kind"], KINDS_RULE],
  ["ListTransactionsRequest", {}, { limit: 101 }, ["limit"], "at most 100"],
  ["ExperienceAnalyticsRequest", { experienceId: "e1", days: 28 }, { days: 91 }, ["days"], "at most 90"],
  ["ExperienceAnalyticsRequest", { experienceId: "e1", days: 28 }, { experienceId: "" }, ["experienceId"], "required"],
  ["ListSalesRequest", {}, { limit: 101 }, ["limit"], "at most 100"],
  ["ListMyItemsRequest", {}, { kind: "hat" }, ["kind"], KINDS_RULE],
  ["RequestPayoutRequest", { credits: 1000 }, { credits: 0 }, ["credits"], "at least 1"],
  ["RequestPayoutRequest", { credits: 1000 }, { requestId: long(129) }, ["requestId"], "at most 128 characters"],
];

/** Values the spec gives a meaning to that must pass. */
const VALID: [schema: string, value: Record<string, unknown>][] = [
  ["UpdateExperienceRequest", { experienceId: "e1", title: "", visibility: "" }],
  ["UpdateExperienceRequest", { experienceId: "e1", visibility: "private" }],
  ["VoteRequest", { experienceId: "e1", vote: -1 }],
  ["VoteRequest", { experienceId: "e1" }],
  ["ListExperiencesRequest", { sort: "" }],
  ["ListExperiencesRequest", { sort: "up_and_coming", limit: 100 }],
  ["ListVersionsRequest", { experienceId: "e1", limit: 200 }],
  ["PublishVersionRequest", { experienceId: "e1", contentUrls: { web: "https://cdn/m.json" }, engineMin: { ios: "1.4.0" }, budgetReportJson: "{\"drawCalls\":12}" }],
  ["JoinRequest", { experienceId: "e1", sessionId: "" }],
  ["StartTopUpRequest", { packId: "p1", method: "" }],
  ["StartTopUpRequest", { packId: "p1", method: "sandbox" }],
  ["CreateItemRequest", { kind: "developer_product", name: "Coins", price: 0, experienceId: "e1" }],
  ["UpdateItemRequest", { itemId: "i1", price: -1, status: "" }],
  ["UpdateItemRequest", { itemId: "i1", status: "delisted" }],
  ["BuyItemRequest", { itemId: "i1", expectedPrice: 0, requestId: "" }],
  ["ExperienceAnalyticsRequest", { experienceId: "e1" }],
];

function schemaNamed(name: string): AnyMessage {
  const schema = (schemas as unknown as Record<string, AnyMessage>)[name];
  if (!schema) throw new Error(`no schema ${name}`);
  return schema;
}

describe("request validation", () => {
  it.each(INVALID)("should reject a %s whose field breaks its rule (%j → %j)", (name, valid, change, path, message) => {
    const schema = schemaNamed(name);
    expect(schema.safeParse(valid).success).toBe(true);
    const result = schema.safeParse(Object.fromEntries(Object.entries({ ...valid, ...change }).filter(([, v]) => v !== undefined)));
    expect(result.success).toBe(false);
    const issue = result.error!.issues[0]!;
    expect(issue.path).toEqual(path);
    if (message !== null) expect(issue.message).toBe(message);
  });

  it.each(VALID)("should accept the %s %j", (name, value) => {
    expect(schemaNamed(name).safeParse(value).success).toBe(true);
  });

  it("should accept a hosting tier if and only if the spec lists it", () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom("solo", "peer", "edge", "dedicated"), fc.string()), (tier) => {
        const result = schemas.CreateExperienceRequest.safeParse({ title: "Obby", hostingTier: tier, maxPlayers: 8 });
        expect(result.success).toBe(["solo", "peer", "edge", "dedicated"].includes(tier));
      }),
    );
  });

  it("should accept a vote if and only if it is 1, -1 or 0", () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (vote) => {
        expect(schemas.VoteRequest.safeParse({ experienceId: "e1", vote }).success).toBe(vote >= -1 && vote <= 1);
      }),
    );
  });

  it("should fill left-out optional fields with their defaults", () => {
    const parsed: z.output<typeof schemas.BuyItemRequest> = schemas.BuyItemRequest.parse({ itemId: "i1", expectedPrice: 25 });
    expect(parsed).toEqual({ itemId: "i1", expectedPrice: 25, soldInExperienceId: "", requestId: "" });
  });
});

