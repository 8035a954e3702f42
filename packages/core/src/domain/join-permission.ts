/*
 * Whether a player may enter a session. A block either way keeps two
 * players apart, always. Each member's `whoCanJoin` setting says who may
 * follow them into their session by its id (a join with a `sessionId`, an
 * invite); matchmaking places players by the game's rules, as public
 * servers do, so it checks blocks only.
 */

/** How the player comes in: by the session's id, or placed by matchmaking. */
export type JoinMode = "follow" | "matchmake";

export type WhoCanJoin = "everyone" | "friends" | "nobody";

/** A member as the join rule sees them, from the joining player's side. */
export interface MemberStance {
  userId: string;
  whoCanJoin: WhoCanJoin;
  /** Whether the joining player is this member's friend. */
  isFriend: boolean;
  /** Whether either blocked the other. */
  blocked: boolean;
}

/** Why a player may not join: the reason names the rule; null when they may. */
export function joinRefusal(members: readonly MemberStance[], mode: JoinMode = "follow"): string | null {
  for (const member of members) {
    if (member.blocked) return "a member of this session and you have blocked each other";
    if (mode === "matchmake") continue;
    if (member.whoCanJoin === "nobody") return "a member of this session lets nobody join them";
    if (member.whoCanJoin === "friends" && !member.isFriend) return "a member of this session lets only friends join them";
  }
  return null;
}
