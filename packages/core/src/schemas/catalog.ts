import { z } from "zod";
import { bool, bytes, int32, int64, list, map, message, string, timestamp } from "../wire/fields.js";
import { empty, limit, UserSummary } from "./common.js";
import { jsonText } from "./json-text.js";

/*
 * Schemas of CatalogService, in the spec's field order (the order gives the
 * proto field numbers). Caps the spec leaves open: ids 1-64 characters; title
 * 1-50; description and notes at most 1000; genre at most 32; search query at
 * most 100; URLs at most 2048; engine versions at most 32; budget report at
 * most 64 KiB of JSON nested at most 32 levels deep; content type 1-100;
 * content name at most 200; maxPlayers 1-100; ListExperiences limit at most
 * 100. The 8 MiB blob cap is the service's.
 */

/** How sessions of an experience are hosted. */
export const HOSTING_TIERS = ["solo", "peer", "edge", "dedicated"] as const;
/** Who sees an experience. */
export const VISIBILITIES = ["draft", "public", "private"] as const;
/** Checks a place version goes through; only `live` ones may be the live version. */
export const PLACE_VERSION_STATUSES = ["pending", "live", "rejected"] as const;
/** ListExperiences orders and filters; "" means `popular`. */
export const EXPERIENCE_SORTS = ["popular", "new", "top_rated", "friends", "search", "recent", "up_and_coming", "trending", "testing"] as const;

export const EXPERIENCE_TITLE_MAX = 50;
export const EXPERIENCE_DESCRIPTION_MAX = 1000;
export const MAX_PLAYERS_MAX = 100;
/** Largest blob UploadContent takes (the service checks the decoded size). */
export const CONTENT_MAX_BYTES = 8 * 1024 * 1024;
export const LIST_VERSIONS_MAX = 200;

const max = (n: number) => z.string().max(n, { error: `at most ${n} characters` });
const id = () => string(z.string().min(1, { error: "required" }).max(64, { error: "at most 64 characters" }));
const optionalId = () => string(max(64));
/** A string that is one of `values`, or "" when `allowEmpty`. */
const oneOf = (values: readonly string[], allowEmpty: boolean) =>
  string(z.string().refine((v) => (allowEmpty && v === "") || values.includes(v), { error: `one of ${values.join(", ")}` }));
export const PlaceVersion = message("PlaceVersion", {
  id: string(),
  placeId: string(),
  number: int64(),
  contentUrls: map(string()),
  engineMin: map(string()),
  status: string(),
  createdAt: timestamp(),
  notes: string(),
  // Not in the spec's table: why a version is `rejected` (empty otherwise), so the answer to PublishVersion says why.
  rejectReason: string(),
});

export const Experience = message("Experience", {
  id: string(),
  title: string(),
  description: string(),
  creator: UserSummary,
  genre: string(),
  thumbnailUrl: string(),
  visibility: string(),
  playingNow: int64(),
  visits: int64(),
  favorites: int64(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
  // Absent until the first publish: the only nested message a caller may find missing.
  liveVersion: PlaceVersion.optional(),
  startPlaceId: string(),
  hostingTier: string(),
  maxPlayers: int32(),
  favorited: bool(),
  upVotes: int64(),
  downVotes: int64(),
  myVote: int32(),
});

export const CreateExperienceRequest = message("CreateExperienceRequest", {
  title: string(z.string().min(1, { error: "required" }).max(EXPERIENCE_TITLE_MAX, { error: `at most ${EXPERIENCE_TITLE_MAX} characters` })),
  description: string(max(EXPERIENCE_DESCRIPTION_MAX)),
  genre: string(max(32)),
  hostingTier: oneOf(HOSTING_TIERS, false),
  maxPlayers: int32(z.int32().min(1, { error: `1 to ${MAX_PLAYERS_MAX}` }).max(MAX_PLAYERS_MAX, { error: `1 to ${MAX_PLAYERS_MAX}` })),
});

/** Empty strings keep the current value. */
export const UpdateExperienceRequest = message("UpdateExperienceRequest", {
  experienceId: id(),
  title: string(max(EXPERIENCE_TITLE_MAX)),
  description: string(max(EXPERIENCE_DESCRIPTION_MAX)),
  visibility: oneOf(VISIBILITIES, true),
  thumbnailUrl: string(max(2048)),
});

export const ExperienceRef = message("ExperienceRef", { experienceId: id() });

export const FavoriteRequest = message("FavoriteRequest", { experienceId: id(), favorite: bool() });
export const FavoriteResponse = message("FavoriteResponse", { favorited: bool(), favorites: int64() });

export const VoteRequest = message("VoteRequest", {
  experienceId: id(),
  vote: int32(z.int32().refine((v) => v === -1 || v === 0 || v === 1, { error: "one of 1, -1, 0" })),
});
export const VoteResponse = message("VoteResponse", { upVotes: int64(), downVotes: int64(), myVote: int32() });

export const ListExperiencesRequest = message("ListExperiencesRequest", {
  sort: oneOf(EXPERIENCE_SORTS, true),
  query: string(max(100)),
  genre: string(max(32)),
  limit: limit(100),
  creatorId: optionalId(),
});
export const ListExperiencesResponse = message("ListExperiencesResponse", { experiences: list(Experience) });

export const ListVersionsRequest = message("ListVersionsRequest", {
  experienceId: id(),
  limit: limit(LIST_VERSIONS_MAX),
  beforeNumber: int64(z.int().min(0, { error: "must not be negative" })),
});
export const ListVersionsResponse = message("ListVersionsResponse", { versions: list(PlaceVersion), liveVersionId: string() });

export const PublishVersionRequest = message("PublishVersionRequest", {
  experienceId: id(),
  contentUrls: map(string(max(2048))),
  engineMin: map(string(max(32))),
  notes: string(max(1000)),
  budgetReportJson: jsonText({ max: 65536, maxRule: "at most 65536 characters", holds: "value", allowEmpty: true }),
});

export const SetLiveVersionRequest = message("SetLiveVersionRequest", { experienceId: id(), versionId: id() });

/** `userId` takes a user id or a username; the service requires one of `userId` and `username`. */
export const TesterRequest = message("TesterRequest", {
  experienceId: id(),
  userId: optionalId(),
  username: string(max(64)),
});
export const ListTestersResponse = message("ListTestersResponse", { testers: list(UserSummary) });

export const UploadContentRequest = message("UploadContentRequest", {
  data: bytes(),
  contentType: string(z.string().min(1, { error: "required" }).max(100, { error: "at most 100 characters" })),
  name: string(max(200)),
});
export const UploadContentResponse = message("UploadContentResponse", { url: string(), sha256: string(), size: int64() });

export const ListMyExperiencesRequest = empty("ListMyExperiencesRequest");
