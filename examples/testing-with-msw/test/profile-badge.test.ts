import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMemoryServer } from "@playfield/server-memory";
import { mswHandlers } from "@playfield/server-memory/msw";
import { API_URL, createAppClient, profileBadge } from "../src/profile-badge.js";

// One in-memory server for the file; reset between tests. msw routes the app's
// own fetch calls to it: no port, no change to the app's code.
const server = createMemoryServer();
const network = setupServer(...mswHandlers(server, API_URL));

beforeAll(() => network.listen({ onUnhandledRequest: "error" }));
afterEach(async () => {
  network.resetHandlers();
  await server.reset();
});
afterAll(() => network.close());

describe("profileBadge", () => {
  it("should show a guest's generated name", async () => {
    const client = createAppClient();
    await client.identity.startGuest();
    expect(await profileBadge(client)).toMatch(/^Guest_\d+ \(guest\)$/);
  });

  it("should show a seeded account's display name", async () => {
    const user = await server.seed.user({ username: "grace_h", displayName: "Grace" });
    const client = createAppClient();
    await client.auth.setTokens({ accessToken: user.accessToken, refreshToken: user.refreshToken });
    expect(await profileBadge(client)).toBe("Grace");
  });

  it("should keep working after the access token expires (the client refreshes)", async () => {
    const user = await server.seed.user({ username: "grace_h" });
    const client = createAppClient();
    await client.auth.setTokens({ accessToken: user.accessToken, refreshToken: user.refreshToken });
    server.clock.advance(20 * 60_000);
    expect(await profileBadge(client)).toBe("grace_h");
  });
});
