/*
 * A piece of a game front-end: it uses the app's own client, configured with
 * the real API address. Tests do not change it: msw answers its requests
 * with the in-memory server.
 */
import { createClient, type PlayfieldClient } from "@playfield/client";

export const API_URL = "https://api.playfield.example";

export function createAppClient(): PlayfieldClient {
  return createClient({ baseUrl: API_URL, clientName: "Example game (web)" });
}

/** The text of the signed-in player's badge. */
export async function profileBadge(client: PlayfieldClient): Promise<string> {
  const me = await client.identity.getMe();
  return me.guest ? `${me.user.username} (guest)` : me.user.displayName || me.user.username;
}
