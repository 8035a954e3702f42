import { NO_FACTS, tables, type PairFacts, type Tx } from "@playfield/core";

/*
 * Reads of the social graph that other services need (Session: friends
 * first, whoCanJoin, blocks; Chat: whoCanMessage; Social itself). Inside a
 * transaction, so a check and the write it guards are atomic.
 */

export async function areFriends(tx: Tx, a: string, b: string): Promise<boolean> {
  return (await tx.get(tables.friendEdges, `${a}:${b}`)) !== undefined;
}

/** The friend ids of a user, oldest friendship first. */
export async function friendIds(tx: Tx, userId: string): Promise<string[]> {
  return (await tx.query(tables.friendEdges, "byUser", { equals: [userId] })).map((edge) => edge.friendId);
}

/** Of `others`, the ids `userId` is friends with: one read for all of them. */
export async function friendsAmong(tx: Tx, userId: string, others: readonly string[]): Promise<Set<string>> {
  const edges = await tx.getMany(tables.friendEdges, others.map((other) => `${userId}:${other}`));
  return new Set(others.filter((_, i) => edges[i] !== undefined));
}

/** Of `others`, the ids that blocked `blocked`: one read for all of them. */
export async function blockersAmong(tx: Tx, others: readonly string[], blocked: string): Promise<Set<string>> {
  const rows = await tx.getMany(tables.blocks, others.map((other) => `${other}:${blocked}`));
  return new Set(others.filter((_, i) => rows[i] !== undefined));
}

/** Of `others`, the ids `blocker` blocked: one read for all of them. */
export async function blockedBy(tx: Tx, blocker: string, others: readonly string[]): Promise<Set<string>> {
  const rows = await tx.getMany(tables.blocks, others.map((other) => `${blocker}:${other}`));
  return new Set(others.filter((_, i) => rows[i] !== undefined));
}

/** Whether `blocker` blocked `blocked`. */
export async function hasBlocked(tx: Tx, blocker: string, blocked: string): Promise<boolean> {
  return (await tx.get(tables.blocks, `${blocker}:${blocked}`)) !== undefined;
}

/** What is stored about a pair, from `viewer`'s side: friendship and requests either way. */
export async function pairFacts(tx: Tx, viewer: string, other: string): Promise<PairFacts> {
  const [friends, sent, received] = await Promise.all([
    areFriends(tx, viewer, other),
    tx.get(tables.friendRequests, `${viewer}:${other}`),
    tx.get(tables.friendRequests, `${other}:${viewer}`),
  ]);
  return { friends, sent: sent !== undefined, received: received !== undefined };
}

/** Writes the difference between two facts of a pair (both friend edges, the requests either way). */
export async function writePairFacts(tx: Tx, viewer: string, other: string, before: PairFacts, after: PairFacts, now: number): Promise<void> {
  if (after.friends !== before.friends) {
    if (after.friends) {
      await tx.put(tables.friendEdges, { id: `${viewer}:${other}`, userId: viewer, friendId: other, createdAt: now });
      await tx.put(tables.friendEdges, { id: `${other}:${viewer}`, userId: other, friendId: viewer, createdAt: now });
    } else {
      await tx.delete(tables.friendEdges, `${viewer}:${other}`);
      await tx.delete(tables.friendEdges, `${other}:${viewer}`);
    }
  }
  const requests: [boolean, boolean, string, string][] = [
    [before.sent, after.sent, viewer, other],
    [before.received, after.received, other, viewer],
  ];
  for (const [was, is, from, to] of requests) {
    if (is && !was) await tx.put(tables.friendRequests, { id: `${from}:${to}`, fromId: from, toId: to, createdAt: now });
    if (was && !is) await tx.delete(tables.friendRequests, `${from}:${to}`);
  }
}

/** Whether `follower` follows `followee`. */
export async function isFollowing(tx: Tx, follower: string, followee: string): Promise<boolean> {
  return (await tx.get(tables.follows, `${follower}:${followee}`)) !== undefined;
}

/** Ends everything between two users: friendship, requests and follows, both ways (Block does this). */
export async function severPair(tx: Tx, a: string, b: string): Promise<void> {
  await writePairFacts(tx, a, b, await pairFacts(tx, a, b), NO_FACTS, 0);
  await tx.delete(tables.follows, `${a}:${b}`);
  await tx.delete(tables.follows, `${b}:${a}`);
}
