import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AvatarService,
  ChatService,
  DatastoreService,
  SafetyService,
  SocialService,
  fillMessage,
  messageName,
  readMessage,
  schemas,
  shapeTable,
  writeMessage,
  type AnyMessage,
  type FieldShape,
  type MessageShape,
  type ServiceDesc,
} from "../src/index.js";

/*
 * Literal copies of the spec's tables (HTTP API, "Social/Avatar/Chat/Safety/
 * Datastore types" and the five services' endpoint tables). The descriptors
 * and schemas are checked against them, not against themselves.
 */

/** Endpoint rows as the spec writes them: `Method | Auth | Request | Response`. */
const SPEC_ENDPOINTS: { service: ServiceDesc; allAuth?: string; rows: string[] }[] = [
  {
    service: SocialService,
    rows: [
      "GetProfile | Optional | GetProfileRequest | Profile",
      "UpdateProfile | Account | UpdateProfileRequest | Profile",
      "SearchUsers | None | SearchUsersRequest | SearchUsersResponse",
      "SendFriendRequest | Account | FriendRequestRef | FriendRequestResponse",
      "AcceptFriendRequest | Account | FriendRequestRef | FriendRequestResponse",
      "DeclineFriendRequest | Account | FriendRequestRef | FriendRequestResponse",
      "RemoveFriend | Account | FriendRequestRef | FriendRequestResponse",
      "ListFriends | Optional | ListFriendsRequest | ListFriendsResponse",
      "ListFriendRequests | Account | empty | ListFriendRequestsResponse",
      "Follow | Account | FollowRequest | FollowResponse",
      "Unfollow | Account | FollowRequest | FollowResponse",
      "CreateGroup | Account | CreateGroupRequest | Group",
      "JoinGroup | Account | GroupRef | Group",
      "LeaveGroup | Account | GroupRef | Group",
      "GetGroup | Optional | GroupRef | Group",
      "ListMyGroups | Account | empty | ListGroupsResponse",
      "SearchGroups | Optional | SearchGroupsRequest | ListGroupsResponse",
      "ListGroupMembers | None | GroupRef | ListGroupMembersResponse",
      "Block | Account | BlockRequest | BlockResponse",
      "Unblock | Account | BlockRequest | BlockResponse",
      "ListBlocked | Account | empty | SearchUsersResponse",
    ],
  },
  {
    service: AvatarService,
    rows: [
      "GetAvatar | Account or guest (also scoped token `avatar`) | GetAvatarRequest | Avatar",
      "SetAvatar | Account (also scoped token `avatar`) | SetAvatarRequest | Avatar",
    ],
  },
  {
    // "ChatService (all Account)"
    service: ChatService,
    allAuth: "Account",
    rows: [
      "ListConversations | ListConversationsRequest | ListConversationsResponse",
      "MarkRead | MarkReadRequest | MarkReadResponse",
    ],
  },
  {
    // "SafetyService (all Account, guests refused, rate-limited)"
    service: SafetyService,
    allAuth: "Account",
    rows: [
      "ReportPlayer | ReportPlayerRequest | ReportResponse",
      "ReportExperience | ReportExperienceRequest | ReportResponse",
    ],
  },
  {
    service: DatastoreService,
    rows: [
      "Get | Game token | DatastoreGetRequest | DatastoreGetResponse",
      "Set | Game token | DatastoreSetRequest | DatastoreSetResponse",
      "Update | Game token | DatastoreUpdateRequest | DatastoreUpdateResponse",
      "Delete | Game token | DatastoreDeleteRequest | DatastoreDeleteResponse",
      "ListKeys | Game token | DatastoreListKeysRequest | DatastoreListKeysResponse",
      "IncrementOrdered | Game token | IncrementOrderedRequest | IncrementOrderedResponse",
      "ListOrdered | Game token | ListOrderedRequest | ListOrderedResponse",
      "ExportMyData | Account (guests refused) | empty | ExportMyDataResponse",
    ],
  },
];

/** The spec's auth words and the descriptor's auth levels. */
const SPEC_AUTH: Record<string, string> = {
  None: "none",
  Optional: "optional",
  "Account or guest": "guest",
  Account: "account",
  "Game token": "game",
};

/*
 * Fields of every type, in the spec's order (the order is the proto field
 * number). Untyped fields are strings; `number` is int32 or double on the
 * wire; `[]X` is an array of X; timestamps are strings.
 */
const SPEC_TYPES: Record<string, string> = {
  // Social types
  Profile: "user:UserSummary bio friendCount:int64 followerCount:int64 followingCount:int64 relationship following:bool createdAt",
  GetProfileRequest: "userId username",
  UpdateProfileRequest: "displayName bio",
  SearchUsersRequest: "query limit:number",
  SearchGroupsRequest: "query limit:number",
  SearchUsersResponse: "users:[]UserSummary",
  FriendRequestRef: "userId",
  FriendRequestResponse: "relationship",
  Friend: "user:UserSummary presence experienceId",
  ListFriendsRequest: "userId",
  ListFriendsResponse: "friends:[]Friend",
  ListFriendRequestsResponse: "incoming:[]UserSummary outgoing:[]UserSummary",
  FollowRequest: "userId",
  BlockRequest: "userId",
  FollowResponse: "following:bool",
  BlockResponse: "blocked:bool",
  CreateGroupRequest: "name description",
  GroupRef: "groupId",
  Group: "id name description owner:UserSummary memberCount:int64 myRank:number",
  GroupMember: "user:UserSummary rank:number role joinedAt",
  ListGroupsResponse: "groups:[]Group",
  ListGroupMembersResponse: "members:[]GroupMember",
  ListFriendRequestsRequest: "",
  ListMyGroupsRequest: "",
  ListBlockedRequest: "",
  // Avatar types
  Avatar: "userId specVersion:number body tints:map<string,string> wornItemIds:[]string emotes:map<number,string> updatedAt base proportions:Proportions",
  Proportions: "height:number head:number torso:number arms:number legs:number shoulders:number hips:number",
  GetAvatarRequest: "userId",
  SetAvatarRequest: "body tints:map<string,string> wornItemIds:[]string emotes:map<number,string> base proportions:Proportions",
  // Chat types
  Conversation: "channel title withUser:UserSummary lastMessage lastSender:UserSummary lastAt unread:int64 lastMessageId",
  ListConversationsRequest: "limit:number",
  ListConversationsResponse: "conversations:[]Conversation",
  MarkReadRequest: "channel messageId",
  MarkReadResponse: "unreadTotal:int64",
  // Safety types
  ReportPlayerRequest: "userId category details experienceId sessionId messageId",
  ReportExperienceRequest: "experienceId category details",
  ReportResponse: "reportId",
  // Datastore types
  DatastoreGetRequest: "store scope userId key",
  DatastoreGetResponse: "found:bool value version:int64 updatedAt",
  DatastoreSetRequest: "store scope userId key value ifVersion:bool version:int64",
  DatastoreSetResponse: "ok:bool version:int64 value",
  DatastoreUpdateRequest: "store scope userId key patch",
  DatastoreUpdateResponse: "value version:int64",
  DatastoreDeleteRequest: "store scope userId key",
  DatastoreDeleteResponse: "found:bool",
  DatastoreListKeysRequest: "store scope userId prefix limit:number after",
  DatastoreListKeysResponse: "keys:[]string next",
  IncrementOrderedRequest: "store key delta:int64",
  IncrementOrderedResponse: "value:int64",
  ListOrderedRequest: "store limit:number ascending:bool offset:number",
  ListOrderedResponse: "entries:[]OrderedEntry",
  OrderedEntry: "key value:int64 rank:int64",
  ExportedEntry: "experienceId store scope key value version:int64 updatedAt",
  ExportedOrderedEntry: "experienceId store key value:int64 updatedAt",
  ExportMyDataResponse: "entries:[]ExportedEntry ordered:[]ExportedOrderedEntry",
  ExportMyDataRequest: "",
};

/** The spec's proportion ranges (0 = unset is allowed besides). */
const SPEC_PROPORTIONS: Record<string, [number, number]> = {
  height: [0.8, 1.2],
  head: [0.8, 1.3],
  torso: [0.85, 1.15],
  arms: [0.85, 1.15],
  legs: [0.85, 1.15],
  shoulders: [0.8, 1.25],
  hips: [0.85, 1.2],
};

const SPEC_REPORT_CATEGORIES = ["harassment", "inappropriate_content", "cheating", "scam", "impersonation", "self_harm", "other"];

function schemaOf(name: string): AnyMessage {
  const schema = (schemas as unknown as Record<string, AnyMessage | undefined>)[name];
  if (!schema) throw new Error(`no schema ${name}`);
  return schema;
}

function parseRow(row: string, allAuth: string | undefined) {
  const cells = row.split("|").map((c) => c.trim());
  const [method, authCell, request, response] = allAuth ? [cells[0], allAuth, cells[1], cells[2]] : cells;
  const match = /^(.*?)(?: \((?:also scoped token `(\w+)`|guests refused)\))?$/.exec(authCell!)!;
  return { method: method!, auth: SPEC_AUTH[match[1]!], scopes: match[2] ? [match[2]] : [], request: request!, response: response! };
}

const TABLE = shapeTable();

function shapeMatches(shape: FieldShape, type: string): boolean {
  if (type.startsWith("[]")) return shape.kind === "list" && shapeMatches(shape.item, type.slice(2));
  const map = /^map<(\w+),(\w+)>$/.exec(type);
  if (map) return shape.kind === "map" && shape.key === (map[1] === "number" ? "int32" : "string") && shapeMatches(shape.value, map[2]!);
  if (shape.kind === "message") return shape.name === type;
  if (shape.kind !== "scalar") return false;
  if (type === "number") return shape.type === "int32" || shape.type === "double";
  return shape.type === type;
}

describe.each(SPEC_ENDPOINTS)("$service.typeName", ({ service, allAuth, rows }) => {
  const spec = rows.map((row) => parseRow(row, allAuth));

  it("should have exactly the spec's methods, in its order", () => {
    expect(Object.values(service.methods).map((m) => m.name)).toEqual(spec.map((r) => r.method));
  });

  it.each(spec)("should describe $method with the spec's auth, scopes, request and response", (row) => {
    const localName = row.method[0]!.toLowerCase() + row.method.slice(1);
    const method = service.methods[localName]!;
    expect(method).toBeDefined();
    expect(method.path).toBe(`/${service.typeName}/${row.method}`);
    expect(method.auth).toBe(row.auth);
    expect(method.scopes).toEqual(row.scopes);
    expect(method.summary.length).toBeGreaterThan(0);
    expect(messageName(method.output)).toBe(row.response);
    if (row.request === "empty") {
      expect(messageName(method.input)).toBe(`${row.method}Request`);
      expect(Object.keys(method.input.shape)).toEqual([]);
    } else {
      expect(messageName(method.input)).toBe(row.request);
    }
  });
});

describe("spec types", () => {
  it.each(Object.entries(SPEC_TYPES))("should give %s the spec's fields, in order, with their wire kinds", (name, fields) => {
    const expected = fields === "" ? [] : fields.split(" ").map((f) => f.split(":") as [string, string?]);
    expect(messageName(schemaOf(name))).toBe(name);
    const shape = TABLE[name];
    expect(shape, `${name} is reachable from a method`).toBeDefined();
    expect(shape!.fields.map((f) => f.name)).toEqual(expected.map(([field]) => field));
    for (const [field, type = "string"] of expected) {
      const info = shape!.fields.find((f) => f.name === field)!;
      expect(shapeMatches(info.shape, type), `${name}.${field} should be ${type}, is ${JSON.stringify(info.shape)}`).toBe(true);
    }
  });

  it("should carry proportion factors as doubles, so 1.05 survives", () => {
    for (const field of TABLE.Proportions!.fields) expect(field.shape).toEqual({ kind: "scalar", type: "double" });
    const written = writeMessage(TABLE, TABLE.Proportions!, { height: 1.05, head: 0, torso: 0, arms: 0, legs: 0, shoulders: 0, hips: 0 });
    expect(written).toEqual({ height: 1.05 });
  });
});

/** Values for a wire shape (not for zod's rules): what the codec must carry unchanged. */
function arbitraryOf(name: string, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const shape: MessageShape = TABLE[name]!;
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of shape.fields) {
    // Nested messages two levels down are left out: enough to exercise them.
    if (field.shape.kind === "message" && depth > 1) continue;
    fields[field.name] = arbitraryField(field.shape, depth);
  }
  return fc.record(fields);
}

function arbitraryField(shape: FieldShape, depth: number): fc.Arbitrary<unknown> {
  switch (shape.kind) {
    case "scalar":
      switch (shape.type) {
        case "string": case "bytes": return fc.string();
        case "bool": return fc.boolean();
        case "int32": return fc.integer();
        case "int64": return fc.maxSafeInteger();
        // -0 is written as the default and reads back as 0.
        case "double": return fc.double({ noNaN: true, noDefaultInfinity: true }).map((v) => (Object.is(v, -0) ? 0 : v));
      }
      break;
    case "enum": return fc.constantFrom(...shape.values);
    case "message": return arbitraryOf(shape.name, depth + 1);
    case "list": return fc.array(arbitraryField(shape.item, depth), { maxLength: 3 });
    case "map": {
      const key = shape.key === "int32" ? fc.integer({ min: 1, max: 8 }).map(String) : fc.stringMatching(/^[a-z_]{1,8}$/);
      return fc.dictionary(key, arbitraryField(shape.value, depth), { maxKeys: 3, noNullPrototype: true });
    }
  }
  throw new Error("unknown shape");
}

const MESSAGES = Object.keys(SPEC_TYPES);

describe("proto3 JSON codec over these types", () => {
  it.each(MESSAGES)("should round-trip %s through writeMessage, JSON text and fillMessage", (name) => {
    fc.assert(
      fc.property(arbitraryOf(name), (value) => {
        const text = JSON.stringify(writeMessage(TABLE, TABLE[name]!, value));
        expect(fillMessage(TABLE, TABLE[name]!, JSON.parse(text) as Record<string, unknown>)).toEqual(value);
      }),
      { numRuns: 50 },
    );
  });

  it("should write int64 fields as decimal strings and leave defaults out", () => {
    const response = schemaOf("DatastoreGetResponse").parse({ found: true, value: '{"coins":5}', version: 3 });
    expect(writeMessage(TABLE, TABLE.DatastoreGetResponse!, response)).toEqual({ found: true, value: '{"coins":5}', version: "3" });
    const entry = schemaOf("OrderedEntry").parse({ key: "u1", value: 9007199254740991, rank: 1 });
    expect(writeMessage(TABLE, TABLE.OrderedEntry!, entry)).toEqual({ key: "u1", value: "9007199254740991", rank: "1" });
  });

  it("should read snake_case names and int64 strings in requests, and drop unknown fields", () => {
    const json = { store: "saves", key: "slot1", value: "{}", if_version: true, version: "7", colour: "red" };
    const request = schemaOf("DatastoreSetRequest").parse(readMessage(TABLE, TABLE.DatastoreSetRequest!, json));
    expect(request).toEqual({ store: "saves", scope: "", userId: "", key: "slot1", value: "{}", ifVersion: true, version: 7 });
  });

  it("should read an avatar with emote slots as int32 map keys and its proportions", () => {
    const json = { user_id: "u1", spec_version: 2, emotes: { 1: "e-wave" }, worn_item_ids: ["hat"], proportions: { height: "1.1" } };
    const avatar = fillMessage(TABLE, TABLE.Avatar!, json);
    expect(schemaOf("Avatar").parse(avatar)).toMatchObject({
      userId: "u1",
      specVersion: 2,
      emotes: { "1": "e-wave" },
      wornItemIds: ["hat"],
      proportions: { height: 1.1, hips: 0 },
    });
  });
});

describe("SetAvatarRequest", () => {
  const SetAvatarRequest = schemaOf("SetAvatarRequest");

  it("should leave proportions absent when they are not sent, so the current ones are kept", () => {
    expect(SetAvatarRequest.parse({}).proportions).toBeUndefined();
    expect(TABLE.SetAvatarRequest!.fields.find((f) => f.name === "proportions")!.optional).toBe(true);
  });

  it("should accept 0 (unset) and every value within the spec's range for each proportion", () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.entries(SPEC_PROPORTIONS)), fc.double({ noNaN: true, noDefaultInfinity: true }), ([part, [min, max]], v) => {
        const result = SetAvatarRequest.safeParse({ proportions: { [part]: v } });
        expect(result.success).toBe(v === 0 || (v >= min && v <= max));
        if (!result.success) {
          expect(result.error.issues[0]!.path).toEqual(["proportions", part]);
          expect(result.error.issues[0]!.message).toBe(`0 (unset) or ${min} to ${max}`);
        }
      }),
    );
    for (const [part, [min, max]] of Object.entries(SPEC_PROPORTIONS)) {
      expect(SetAvatarRequest.safeParse({ proportions: { [part]: min } }).success).toBe(true);
      expect(SetAvatarRequest.safeParse({ proportions: { [part]: max } }).success).toBe(true);
    }
  });

  it("should accept a full, valid avatar", () => {
    const request = {
      body: "classic",
      tints: { head: "#ffcc99", torso: "#0A0B0C" },
      wornItemIds: ["hat-1", "shirt-2"],
      emotes: { "1": "wave", "8": "dance" },
      base: "base-2",
      proportions: { height: 1.1, head: 0, torso: 0.85, arms: 1.15, legs: 1, shoulders: 1.25, hips: 0.85 },
    };
    expect(SetAvatarRequest.parse(request)).toEqual(request);
  });
});

describe("DatastoreService request keys", () => {
  it("should accept keys of 1 to 128 characters and refuse others", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 140 }), (key) => {
        const result = schemaOf("DatastoreGetRequest").safeParse({ key });
        expect(result.success).toBe(key.length >= 1 && key.length <= 128);
      }),
    );
  });

  it("should accept an empty IncrementOrdered key (the token's own user id)", () => {
    expect(schemaOf("IncrementOrderedRequest").parse({ delta: 5 })).toEqual({ store: "", key: "", delta: 5 });
  });

  it("should accept an empty store and scope (default store, user scope)", () => {
    expect(schemaOf("DatastoreGetRequest").parse({ key: "k" })).toEqual({ store: "", scope: "", userId: "", key: "k" });
  });

  it("should accept each scope of the spec", () => {
    for (const scope of ["user", "global"]) expect(schemaOf("DatastoreGetRequest").safeParse({ key: "k", scope }).success).toBe(true);
  });

  it("should refuse a value over 4 MB with the size rule alone, and accept one of exactly 4 MB", () => {
    const value = `"${"x".repeat(4 * 1024 * 1024 - 1)}"`;
    const result = schemaOf("DatastoreSetRequest").safeParse({ key: "k", value });
    expect(result.error?.issues.map((i) => [i.path, i.message])).toEqual([[["value"], "at most 4 MB"]]);
    expect(schemaOf("DatastoreSetRequest").safeParse({ key: "k", value: `"${"x".repeat(4 * 1024 * 1024 - 2)}"` }).success).toBe(true);
  });
});

describe("SafetyService report categories", () => {
  it.each(["ReportPlayerRequest", "ReportExperienceRequest"])("should accept every category of the spec in %s", (name) => {
    for (const category of SPEC_REPORT_CATEGORIES) {
      expect(schemaOf(name).safeParse({ userId: "u1", experienceId: "e1", category }).success).toBe(true);
    }
  });
});

const long = (n: number) => "x".repeat(n);

/** [schema, input, path of the first issue, its message]: inputs that break one rule each. */
const REJECTED: [string, Record<string, unknown>, (string | number)[], string][] = [
  // Social
  ["FriendRequestRef", {}, ["userId"], "required"],
  ["FriendRequestRef", { userId: long(65) }, ["userId"], "at most 64 characters"],
  ["FollowRequest", {}, ["userId"], "required"],
  ["BlockRequest", { userId: "" }, ["userId"], "required"],
  ["GroupRef", {}, ["groupId"], "required"],
  ["GetProfileRequest", { username: long(65) }, ["username"], "at most 64 characters"],
  ["UpdateProfileRequest", { displayName: long(31) }, ["displayName"], "at most 30 characters"],
  ["UpdateProfileRequest", { bio: long(1001) }, ["bio"], "at most 1000 characters"],
  ["CreateGroupRequest", { name: "ab" }, ["name"], "3 to 50 characters"],
  ["CreateGroupRequest", { name: long(51) }, ["name"], "3 to 50 characters"],
  ["CreateGroupRequest", { name: "Builders", description: long(1001) }, ["description"], "at most 1000 characters"],
  ["SearchUsersRequest", { query: long(101) }, ["query"], "at most 100 characters"],
  ["SearchUsersRequest", { limit: 101 }, ["limit"], "at most 100"],
  ["SearchGroupsRequest", { limit: -1 }, ["limit"], "must not be negative"],
  ["Profile", { user: {}, relationship: "enemies" }, ["relationship"], "one of none, friends, request_sent, request_received, self"],
  ["Friend", { user: {}, presence: "away" }, ["presence"], "one of online, in_game, offline"],
  ["GroupMember", { user: {}, rank: 256 }, ["rank"], "0 to 255"],
  // Avatar
  ["GetAvatarRequest", { userId: long(65) }, ["userId"], "at most 64 characters"],
  ["SetAvatarRequest", { tints: { head: "red" } }, ["tints", "head"], "#rrggbb"],
  ["SetAvatarRequest", { tints: { head: "#ffcc9" } }, ["tints", "head"], "#rrggbb"],
  ["SetAvatarRequest", { tints: { "": "#ffcc99" } }, ["tints", ""], "part names are 1 to 32 characters"],
  ["SetAvatarRequest", { wornItemIds: Array.from({ length: 51 }, (_, i) => `item-${i}`) }, ["wornItemIds"], "at most 50 items"],
  ["SetAvatarRequest", { wornItemIds: ["hat", ""] }, ["wornItemIds", 1], "required"],
  ["SetAvatarRequest", { emotes: { "9": "dance" } }, ["emotes", "9"], "slots are 1 to 8"],
  ["SetAvatarRequest", { emotes: { "0": "dance" } }, ["emotes", "0"], "slots are 1 to 8"],
  ["SetAvatarRequest", { emotes: { "01": "dance" } }, ["emotes", "01"], "slots are 1 to 8"],
  ["SetAvatarRequest", { emotes: { "2": "" } }, ["emotes", "2"], "required"],
  ["SetAvatarRequest", { base: long(65) }, ["base"], "at most 64 characters"],
  ["SetAvatarRequest", { proportions: { height: 1.3 } }, ["proportions", "height"], "0 (unset) or 0.8 to 1.2"],
  ["SetAvatarRequest", { proportions: { hips: 0.84 } }, ["proportions", "hips"], "0 (unset) or 0.85 to 1.2"],
  // Chat
  ["MarkReadRequest", {}, ["channel"], "dm:<userId>, group:<id> or session:<id>"],
  ["MarkReadRequest", { channel: "room:1" }, ["channel"], "dm:<userId>, group:<id> or session:<id>"],
  ["MarkReadRequest", { channel: "dm:" }, ["channel"], "dm:<userId>, group:<id> or session:<id>"],
  ["MarkReadRequest", { channel: `dm:${long(200)}` }, ["channel"], "at most 200 characters"],
  ["MarkReadRequest", { channel: "dm:u1", messageId: long(65) }, ["messageId"], "at most 64 characters"],
  ["ListConversationsRequest", { limit: 101 }, ["limit"], "at most 100"],
  // Safety
  ["ReportPlayerRequest", { category: "other" }, ["userId"], "required"],
  ["ReportPlayerRequest", { userId: "u1" }, ["category"], `one of ${SPEC_REPORT_CATEGORIES.join(", ")}`],
  ["ReportPlayerRequest", { userId: "u1", category: "spam" }, ["category"], `one of ${SPEC_REPORT_CATEGORIES.join(", ")}`],
  ["ReportPlayerRequest", { userId: "u1", category: "scam", details: long(1001) }, ["details"], "at most 1000 characters"],
  ["ReportExperienceRequest", { category: "other" }, ["experienceId"], "required"],
  ["ReportExperienceRequest", { experienceId: "e1", category: "rude" }, ["category"], `one of ${SPEC_REPORT_CATEGORIES.join(", ")}`],
  // Datastore
  ["DatastoreGetRequest", { key: "k", store: "my store" }, ["store"], "1 to 50 of A-Z a-z 0-9 _ . - (empty = default)"],
  ["DatastoreGetRequest", { key: "k", store: long(51) }, ["store"], "1 to 50 of A-Z a-z 0-9 _ . - (empty = default)"],
  ["DatastoreGetRequest", { key: "k", scope: "team" }, ["scope"], "one of user, global"],
  ["DatastoreGetRequest", { key: "k", userId: long(65) }, ["userId"], "at most 64 characters"],
  ["DatastoreGetRequest", {}, ["key"], "required"],
  ["DatastoreDeleteRequest", { key: long(129) }, ["key"], "at most 128 characters"],
  ["DatastoreSetRequest", { key: "k" }, ["value"], "must be JSON text"],
  ["DatastoreSetRequest", { key: "k", value: "{coins: 5}" }, ["value"], "must be JSON text"],
  ["DatastoreSetRequest", { key: "k", value: "1", version: -1 }, ["version"], "must not be negative"],
  ["DatastoreUpdateRequest", { key: "k", patch: "[1]" }, ["patch"], "must be a JSON object as text"],
  ["DatastoreUpdateRequest", { key: "k", patch: "null" }, ["patch"], "must be a JSON object as text"],
  ["DatastoreUpdateRequest", { key: "k" }, ["patch"], "must be a JSON object as text"],
  ["DatastoreListKeysRequest", { limit: 1001 }, ["limit"], "at most 1000"],
  ["DatastoreListKeysRequest", { prefix: long(129) }, ["prefix"], "at most 128 characters"],
  ["IncrementOrderedRequest", { key: long(129) }, ["key"], "at most 128 characters"],
  ["IncrementOrderedRequest", { store: "a/b" }, ["store"], "1 to 50 of A-Z a-z 0-9 _ . - (empty = default)"],
  ["ListOrderedRequest", { limit: 101 }, ["limit"], "at most 100"],
  ["ListOrderedRequest", { offset: -1 }, ["offset"], "must not be negative"],
];

describe("request rules", () => {
  const cases = REJECTED.map(([name, input, path, message]) => ({ name, input, path, message, shown: JSON.stringify(input).slice(0, 48) }));
  it.each(cases)("should refuse $name $shown at $path with $message", ({ name, input, path, message }) => {
    const result = schemaOf(name).safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual(path);
    expect(result.error!.issues[0]!.message).toBe(message);
  });

  it("should accept requests at the edges of each rule", () => {
    const accepted: [string, Record<string, unknown>][] = [
      ["UpdateProfileRequest", { displayName: long(30), bio: long(1000) }],
      ["CreateGroupRequest", { name: "abc" }],
      ["CreateGroupRequest", { name: long(50) }],
      ["SearchUsersRequest", { query: long(100), limit: 100 }],
      ["MarkReadRequest", { channel: "group:g1", messageId: "m1" }],
      ["MarkReadRequest", { channel: "session:s1" }],
      ["ListConversationsRequest", { limit: 100 }],
      ["DatastoreGetRequest", { store: "Saves_v1.2-a", scope: "global", key: long(128) }],
      ["DatastoreGetRequest", { store: long(50), key: "k" }],
      ["DatastoreSetRequest", { key: "k", value: "null", ifVersion: true, version: 0 }],
      ["DatastoreUpdateRequest", { key: "k", patch: '{"coins":null}' }],
      ["DatastoreListKeysRequest", { limit: 1000 }],
      ["ListOrderedRequest", { limit: 100, offset: 500000, ascending: true }],
    ];
    for (const [name, input] of accepted) expect(schemaOf(name).safeParse(input).error?.issues ?? [], name).toEqual([]);
  });
});
