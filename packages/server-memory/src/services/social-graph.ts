import { tables, type Tx } from "@playfield/core";

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

/** Whether `blocker` blocked `blocked`. */
export async function hasBlocked(tx: Tx, blocker: string, blocked: string): Promise<boolean> {
  return (await tx.get(tables.blocks, `${blocker}:${blocked}`)) !== undefined;
}

/** Whether either user blocked the other: most interactions are refused both ways. */
export async function blockedEitherWay(tx: Tx, a: string, b: string): Promise<boolean> {
  return (await hasBlocked(tx, a, b)) || (await hasBlocked(tx, b, a));
}
