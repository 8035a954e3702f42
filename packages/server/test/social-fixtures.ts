import { tables } from "@playfield/core";
import { member, type Member } from "./catalog-fixtures.js";
import type { TestServer } from "./fixtures.js";

/* Fixtures of the social, avatar and safety suites. */

export { member, type Member };

/** Several signed-in accounts. */
export async function members(t: TestServer, count: number): Promise<Member[]> {
  const list: Member[] = [];
  for (let i = 0; i < count; i++) list.push(await member(t));
  return list;
}

/** Makes two members friends through the API. */
export async function befriend(a: Member, b: Member): Promise<void> {
  await a.client.social.sendFriendRequest({ userId: b.user.userId });
  await b.client.social.acceptFriendRequest({ userId: a.user.userId });
}

/** Changes a user's settings straight in storage. */
export async function setSettings(t: TestServer, userId: string, settings: Partial<{ whoCanFriend: "everyone" | "friends" | "nobody"; showOnlineStatus: boolean }>): Promise<void> {
  await t.server.deps.storage.transact(async (tx) => {
    const user = (await tx.get(tables.users, userId))!;
    await tx.put(tables.users, { ...user, settings: { ...user.settings, ...settings } });
  });
}
