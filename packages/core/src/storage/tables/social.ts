import { defineTable } from "../port.js";

/*
 * SocialService's tables. A friendship is stored as two directed edges, one
 * per side, so each side's list is one index range; both edges are written
 * and removed in the same transaction.
 */

export interface FriendEdgeRow {
  /** `${userId}:${friendId}` */
  id: string;
  userId: string;
  friendId: string;
  createdAt: number;
}

export const friendEdges = defineTable<FriendEdgeRow>()({
  name: "friend_edges",
  primaryKey: (row) => row.id,
  indexes: {
    byUser: { key: (row) => [row.userId, row.createdAt] },
  },
});

export interface BlockRow {
  /** `${blockerId}:${blockedId}` */
  id: string;
  blockerId: string;
  blockedId: string;
  createdAt: number;
}

export const blocks = defineTable<BlockRow>()({
  name: "blocks",
  primaryKey: (row) => row.id,
  indexes: {
    byBlocker: { key: (row) => [row.blockerId, row.createdAt] },
    byBlocked: { key: (row) => [row.blockedId, row.createdAt] },
  },
});
