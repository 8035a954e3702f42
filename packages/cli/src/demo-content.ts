import { tables } from "@playfield/core";
import type { Server } from "@playfield/server";

/** The demo's experiences: title, genre, description. */
const EXPERIENCES = [
  ["Sky Islands", "adventure", "Hop between floating islands and find the lost lighthouse."],
  ["Dune Racers", "racing", "Sand buggies, twelve players, one very long desert."],
  ["Tower Tycoon", "strategy", "Build the tallest tower in town before the rent is due."],
] as const;

/**
 * Adds a demo creator (`playfield_demo`) and its public experiences through
 * the server's own API, as a studio tool would, so that a front-end started
 * against a fresh server has something to list and join. A server whose
 * storage has them from an earlier start (a data folder, a database) keeps
 * them as they are.
 */
export async function addDemoContent(server: Server): Promise<void> {
  const existing = await server.deps.storage.transact((tx) => tx.query(tables.users, "byUsername", { equals: ["playfield_demo"], limit: 1 }), { readOnly: true });
  if (existing.length > 0) return;
  let token = "";
  const call = async (path: string, body: object): Promise<Record<string, unknown>> => {
    const response = await server.fetch(`http://playfield.local/svc.platform.v1.${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`demo content: ${path} answered ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  // A password nobody knows: the demo creator is never signed in to.
  const password = Array.from(crypto.getRandomValues(new Uint8Array(18)), (b) => b.toString(16).padStart(2, "0")).join("");
  const signedUp = await call("IdentityService/SignUp", { username: "playfield_demo", password, birthdate: "1990-01-01", displayName: "Playfield Demo" });
  token = signedUp.accessToken as string;
  for (const [title, genre, description] of EXPERIENCES) {
    const { id } = await call("CatalogService/CreateExperience", { title, genre, description, hostingTier: "edge", maxPlayers: 12 });
    await call("CatalogService/PublishVersion", { experienceId: id, contentUrls: { web: `https://cdn.example.com/demo/${String(id)}/web.json` } });
    await call("CatalogService/UpdateExperience", { experienceId: id, visibility: "public" });
  }
}
