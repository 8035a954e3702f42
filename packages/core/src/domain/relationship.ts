/*
 * The friend relationship between two users as a state machine (the spec
 * lists the states and leaves the moves open; see docs/social.md). Pure: the
 * service reads the facts of a pair, applies a move here and writes the
 * difference.
 */

/** How a user stands to another, as the viewer sees it. */
export const Relationship = {
  None: "none",
  RequestSent: "request_sent",
  RequestReceived: "request_received",
  Friends: "friends",
  Self: "self",
} as const;
export type Relationship = (typeof Relationship)[keyof typeof Relationship];

/** What is stored about a pair, from the viewer's side. */
export interface PairFacts {
  friends: boolean;
  /** The viewer asked the other. */
  sent: boolean;
  /** The other asked the viewer. */
  received: boolean;
}

export const NO_FACTS: PairFacts = { friends: false, sent: false, received: false };

/** The facts as the other user sees them. */
export function mirror(facts: PairFacts): PairFacts {
  return { friends: facts.friends, sent: facts.received, received: facts.sent };
}

/** The viewer's relationship to the other user. */
export function relationshipOf(facts: PairFacts, self = false): Relationship {
  if (self) return Relationship.Self;
  if (facts.friends) return Relationship.Friends;
  if (facts.sent) return Relationship.RequestSent;
  if (facts.received) return Relationship.RequestReceived;
  return Relationship.None;
}

/** The friend moves of the SocialService. */
export const FriendMove = {
  Send: "send",
  Accept: "accept",
  Decline: "decline",
  Remove: "remove",
} as const;
export type FriendMove = (typeof FriendMove)[keyof typeof FriendMove];

/** A move's result: the next facts, whether it opens a new request (the recipient's whoCanFriend applies), or why it cannot be made. */
export type FriendMoveResult =
  | { ok: true; next: PairFacts; opensRequest: boolean }
  | { ok: false; reason: string };

/**
 * Applies a move of the viewer. Sending to someone who already asked you
 * accepts; sending or accepting again is a no-op; declining withdraws the
 * viewer's own request too; removing ends the friendship and any request.
 * Decline and remove are idempotent; accepting with no request to accept
 * is the only refusal.
 */
export function applyFriendMove(move: FriendMove, facts: PairFacts): FriendMoveResult {
  const friends: PairFacts = { friends: true, sent: false, received: false };
  switch (move) {
    case FriendMove.Send:
      if (facts.friends || facts.sent) return { ok: true, next: facts, opensRequest: false };
      if (facts.received) return { ok: true, next: friends, opensRequest: false };
      return { ok: true, next: { ...NO_FACTS, sent: true }, opensRequest: true };
    case FriendMove.Accept:
      if (facts.friends) return { ok: true, next: facts, opensRequest: false };
      if (facts.received) return { ok: true, next: friends, opensRequest: false };
      return { ok: false, reason: "no friend request from this user" };
    case FriendMove.Decline:
      return { ok: true, next: { ...facts, sent: false, received: false }, opensRequest: false };
    case FriendMove.Remove:
      return { ok: true, next: NO_FACTS, opensRequest: false };
  }
}
