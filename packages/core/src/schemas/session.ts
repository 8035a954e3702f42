import { z } from "zod";
import { bool, int32, int64, list, message, string, timestamp } from "../wire/fields.js";
import { ENGINE_PLATFORMS } from "../domain/place-version-rules.js";
import { empty, UserSummary } from "./common.js";

/*
 * Schemas of SessionService, in the spec's field order (the order gives the
 * proto field numbers). Caps the spec leaves open: ids 1-64 characters (an
 * empty Join `sessionId` means matchmake); `platform` empty or one of the
 * platforms `engineMin` may name (so a minimum can never be dodged by naming
 * another platform); `engineVersion` at most 32.
 */

const id = () => string(z.string().min(1, { error: "required" }).max(64, { error: "at most 64 characters" }));
const max = (n: number) => string(z.string().max(n, { error: `at most ${n} characters` }));

export const JoinRequest = message("JoinRequest", {
  experienceId: id(),
  sessionId: max(64),
  platform: string(z.string().refine((v) => v === "" || (ENGINE_PLATFORMS as readonly string[]).includes(v), { error: `one of ${ENGINE_PLATFORMS.join(", ")} (or empty)` })),
  engineVersion: max(32),
});

export const JoinResponse = message("JoinResponse", {
  sessionId: string(),
  gameToken: string(),
  hostingTier: string(),
  hostUserId: string(),
  connectUrl: string(),
  contentUrl: string(),
  placeVersionId: string(),
  members: list(UserSummary),
});

export const LeaveRequest = message("LeaveRequest", { sessionId: id() });
export const HeartbeatRequest = message("HeartbeatRequest", { sessionId: id() });
export const GetSessionRequest = message("GetSessionRequest", { sessionId: id() });

export const HeartbeatResponse = message("HeartbeatResponse", { memberCount: int64() });

export const InviteToSessionRequest = message("InviteToSessionRequest", { sessionId: id(), userId: id() });

export const ListSessionsRequest = message("ListSessionsRequest", { experienceId: id() });

export const SessionInfo = message("SessionInfo", {
  id: string(),
  memberCount: int64(),
  maxPlayers: int32(),
  friends: list(UserSummary),
});
export const ListSessionsResponse = message("ListSessionsResponse", { sessions: list(SessionInfo) });

export const SessionMember = message("SessionMember", {
  user: UserSummary,
  joinedAt: timestamp(),
  isHost: bool(),
  isFriend: bool(),
  guest: bool(),
});

export const SessionDetail = message("SessionDetail", {
  id: string(),
  experienceId: string(),
  hostingTier: string(),
  maxPlayers: int32(),
  members: list(SessionMember),
});

export const LeaveResponse = empty("LeaveResponse");
export const InviteToSessionResponse = empty("InviteToSessionResponse");
