/**
 * @playfield/core: the platform API described once — zod schemas, service
 * descriptors, the proto3 JSON codec, error codes and pure domain rules.
 * No I/O and no `node:` imports: it runs anywhere.
 * @module
 */

// Symbols above the line are for users of the SDK.
export { Code, codeToHttpStatus, codeFromHttpStatus, isCode } from "./errors/code.js";
export { PlayfieldError, fail, type FieldIssue } from "./errors/playfield-error.js";
export { toErrorJson, errorFromJson, type ErrorJson } from "./errors/error-json.js";
export { issuesToError, fieldPath } from "./errors/issues-to-error.js";
export { AuthLevel, Scope, type AuthRule } from "./api/auth-level.js";
export { defineService, type MethodSpec, type MethodDesc, type ServiceDesc, type MethodInput, type MethodRequest, type MethodOutput } from "./api/define-service.js";
export { services, allMethods, shapeTable, API_PACKAGE, type Services } from "./api/services.js";
export { IdentityService } from "./api/identity-service.js";
export { SocialService } from "./api/social-service.js";
export { CatalogService } from "./api/catalog-service.js";
export { SessionService } from "./api/session-service.js";
export { EconomyService } from "./api/economy-service.js";
export { CreatorService } from "./api/creator-service.js";
export { AvatarService } from "./api/avatar-service.js";
export { ChatService } from "./api/chat-service.js";
export { SafetyService } from "./api/safety-service.js";
export { DatastoreService } from "./api/datastore-service.js";
export * as schemas from "./schemas/index.js";
export { AgeBand, ageBandOf, parseBirthdate } from "./domain/age-band.js";
export { isoTime } from "./domain/iso-time.js";
export { isLoopbackHost, normalizePublicUrl, PUBLIC_URL_RULE, publicUrlRefusal } from "./domain/public-url.js";
export * from "./domain/account-rules.js";
export * from "./domain/relationship.js";
export * from "./domain/who-can-friend.js";
export * from "./domain/group-roles.js";
export * from "./domain/search-ranking.js";
export * from "./domain/avatar-rules.js";
export * from "./domain/report-rules.js";
export * from "./domain/profile-rules.js";
export * from "./domain/discovery-ranking.js";
export * from "./domain/place-version-rules.js";
export * from "./domain/session-rules.js";
export * from "./domain/chat-channel.js";
export * from "./domain/chat-permission.js";
export * from "./domain/chat-text.js";
export * from "./domain/chat-filter.js";
export * from "./domain/chat-unread.js";
export * as realtime from "./realtime/index.js";
export { RealtimeCloseCode, type ServerEvent, type ServerEventMap, type ClientFrame, type ClientFrameInput, type ClientFrameMap } from "./realtime/index.js";
export { JSON_DEPTH_MAX, JSON_DEPTH_RULE, jsonTextDepth, jsonValueDepth } from "./json/json-depth.js";

// Symbols below are for other Playfield packages and adapters.
/** @private Internal code, does not follow semantic versioning. */
export { string, int64, int32, double, bool, bytes, timestamp, list, map, protoEnum, message, type AnyMessage } from "./wire/fields.js";
/** @private Internal code, does not follow semantic versioning. */
export { addMessage, messageName, snakeCase, type ShapeTable, type MessageShape, type FieldShape, type FieldInfo } from "./wire/wire-shape.js";
/** @private Internal code, does not follow semantic versioning. */
export { readMessage, writeMessage, fillMessage } from "./wire/codec.js";
export { messageWriters, type MessageWriter } from "./wire/message-writer.js";
/** @private Internal code, does not follow semantic versioning. */
export { mintClaims, isExpired, TokenType, DEFAULT_LIFETIMES, type TokenClaims, type TokenLifetimes } from "./domain/token-claims.js";
export type { Clock, ManualClock } from "./ports/clock.js";
export { createManualClock } from "./ports/clock.js";
export { defineTable, cursorOf, PRIMARY_INDEX, compareKeys, UniqueViolation, transactAfterReads, type Storage, type StorageSnapshot, type StorageStats, type Tx, type TableDef, type IndexDef, type IndexKey, type Query, type KeyRange, type Cursor, type CountQuery, type TransactOptions } from "./storage/port.js";
export * as tables from "./storage/tables/index.js";
export { shardOf } from "./storage/shard.js";
export { withChanges } from "./storage/with-changes.js";
export type {
  UserRow, DeviceRow, RefreshTokenRow, HandoffRow, ThrottleRow, AccountSettingsRow,
  ExperienceRow, PlaceVersionRow, Visibility, HostingTier, VersionStatus,
  GameSessionRow, SessionMemberRow, PlayingRow, PlayRow,
  FriendEdgeRow, BlockRow,
  FriendRequestRow, FollowRow, ProfileRow, GroupRow, GroupMemberRow, SearchTermRow, SearchSourceRow, SearchSegmentRow, SearchSegmentDataRow, StoredNameSegment, NameSegment, AvatarRow, ReportRow,
  DatastoreScope, DatastoreEntryRow, DatastoreHistoryRow, OrderedEntryRow, DatastoreUsageRow, DatastoreUsageShardRow, DatastorePlayerRow,
} from "./storage/tables/index.js";
export type { ChatMessageRow, ChatConversationRow, ChatReadRow, ChatBucketRow } from "./storage/tables/index.js";
export type { ExperienceVoteRow, ExperienceFavoriteRow, ExperienceTesterRow, ExperienceTermRow, ContentUploadRow, ContentBlobRow } from "./storage/tables/index.js";
export type { WalletRow, LedgerRow, LedgerKind, ItemRow, ItemKind, ItemSalesRow, OwnershipRow, OrderRow, TopUpOrderRow, TopUpStatus, PayoutRow, PayoutStatusName, CreatorDailyRow, ExperienceDailyRow, PlayerDayRow } from "./storage/tables/index.js";
export * from "./domain/wallet-math.js";
export * from "./domain/sale-split.js";
export * from "./domain/payout-rules.js";
export * from "./domain/analytics-windows.js";
export { isThrottled, recordFailure, recordSlowedFailure, retryAfterSeconds, slowdownWaitMs, withdrawFailure, takeToken, tokensLeft, type ThrottleRule, type ThrottleState, type SlowdownRule, type RateRule, type RateState, type RateDecision } from "./domain/throttle.js";
export { s256Challenge, isValidVerifier, isValidChallenge, verifyS256 } from "./domain/pkce.js";
/** @private Internal code, does not follow semantic versioning. */
export { ownValue } from "./json/own-value.js";
export { mergeTopLevel, mergeTopLevelText, isJsonObject, type JsonObject } from "./domain/json-merge.js";
export { nextVersion, setMayWrite } from "./domain/datastore-version.js";
export { sessionAuthority, writeRefusal, type SessionAuthorityInput, type DatastoreTarget, type DatastoreWriter } from "./domain/datastore-authority.js";
export { DEFAULT_DATASTORE_LIMITS, BUDGET_WINDOW_MS, requestBudget, storedBytesCap, budgetWindowStart, fitsStoredBytes, utf8Length, type DatastoreLimits } from "./domain/datastore-budget.js";
export { compareOrdered, addToOrdered, type OrderedValue } from "./domain/ordered-store.js";
