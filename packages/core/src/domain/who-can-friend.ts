/*
 * Who may send a user a friend request, from the user's `whoCanFriend`
 * setting: `everyone`; `friends` = friends of the user's friends (someone
 * with a friend in common); `nobody`.
 */

export type WhoCanFriend = "everyone" | "friends" | "nobody";

/** Whether a sender with `mutualFriends` friends in common may send a request to a user with this setting. */
export function mayRequestFriendship(setting: WhoCanFriend, mutualFriends: number): boolean {
  if (setting === "everyone") return true;
  if (setting === "friends") return mutualFriends > 0;
  return false;
}

/** How many ids two friend lists share. */
export function countMutual(a: readonly string[], b: readonly string[]): number {
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  const set = new Set(large);
  let n = 0;
  for (const id of small) if (set.has(id)) n += 1;
  return n;
}
