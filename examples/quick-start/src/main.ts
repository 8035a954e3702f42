/*
 * Quick start: an in-memory Playfield server in this process (no port), a
 * typed client, and an account's first calls.
 *
 *   npm start -w @playfield/example-quick-start
 */
import { createClient, PlayfieldError } from "@playfield/client";
import { createMemoryServer } from "@playfield/server-memory";

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const server = createMemoryServer();
  const client = createClient({ baseUrl: "http://playfield.test", fetch: server.fetch, clientName: "Quick start (Node)" });

  const { me } = await client.identity.signUp({ username: "ada_l", password: "analytical engine", birthdate: "1990-12-10" });
  log(`signed up as ${me.user.username} (${me.ageBand})`);

  const { devices } = await client.identity.listDevices();
  log(`devices: ${devices.map((d) => `${d.label}${d.current ? " (this one)" : ""}`).join(", ")}`);

  try {
    await client.identity.signUp({ username: "ADA_L", password: "another password", birthdate: "1990-12-10" });
  } catch (error) {
    if (error instanceof PlayfieldError) log(`second sign-up refused: ${error.code}: ${error.rawMessage}`);
  }

  await client.identity.signOut();
  log(`signed in after sign-out: ${await client.auth.isSignedIn()}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
