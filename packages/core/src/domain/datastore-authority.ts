import type { HostingTier } from "../storage/tables/catalog.js";

/*
 * Who may write what in an experience's datastore (spec rule 11). A player
 * writes their own `user` scope and their own ordered key; the session's
 * authority also writes the `user` scope of any player in the session,
 * `global`, and every ordered key. The authority is the host of a peer
 * session, the player of a solo session, and otherwise (no host) the member
 * who joined first. Any member reads everything of the experience.
 */

/** What a session tells about its authority: its tier and host, when it has a row. */
export interface SessionAuthorityInput {
  hostingTier: HostingTier;
  hostUserId: string | null;
}

/**
 * The authority of a session, or null when it has no member. `members` are
 * the session's user ids, earliest joined first; `session` is undefined for
 * a session with no record (treated as having no host).
 */
export function sessionAuthority(session: SessionAuthorityInput | undefined, members: readonly string[]): string | null {
  const host = session?.hostingTier === "peer" ? session.hostUserId : null;
  // A host that is no longer a member hands over to the earliest member (DESIGN.md).
  if (host !== null && members.includes(host)) return host;
  // A solo session has one player: the earliest member is that player.
  return members[0] ?? null;
}

/** What a write reaches. */
export type DatastoreTarget =
  | { kind: "user"; userId: string }
  | { kind: "global" }
  | { kind: "ordered"; key: string };

/** A writer: the caller, whether they are the session's authority, and the session's members. */
export interface DatastoreWriter {
  userId: string;
  isAuthority: boolean;
  members: readonly string[];
}

/** Why a write is refused, or null when it is allowed. */
export function writeRefusal(writer: DatastoreWriter, target: DatastoreTarget): string | null {
  switch (target.kind) {
    case "user":
      if (target.userId === writer.userId) return null;
      if (!writer.isAuthority) return "userId: only the session's authority writes another player's data";
      return writer.members.includes(target.userId) ? null : "userId: the player is not in this session";
    case "global":
      return writer.isAuthority ? null : "scope: only the session's authority writes global data";
    case "ordered":
      return target.key === writer.userId || writer.isAuthority ? null : "key: only the session's authority writes keys other than the player's own user id";
  }
}
