import { createClient, createRealtime, type GameInviteEvent, type RealtimeState, type SessionMembersEvent } from "@playfield/client";
import { RealtimeCloseCode } from "@playfield/core";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { startServer } from "@playfield/server-memory";
import { websocketAdapter } from "../src/node/websocket-adapter.js";
import { addExperience, befriend } from "./session-world.js";

/*
 * The client's realtime connection against a real listening server, with
 * `ws` as the WebSocket (Node 20 has none built in).
 */

async function listening() {
  const server = await startServer({ port: 0 });
  return Object.assign(server, { [Symbol.asyncDispose]: () => server.close() });
}

async function signedIn(url: string, user: { accessToken: string; refreshToken: string }) {
  const client = createClient({ baseUrl: url });
  await client.auth.setTokens({ accessToken: user.accessToken, refreshToken: user.refreshToken });
  return client;
}

describe("createRealtime", () => {
  it("should hand typed roster and invite events to their handlers", async () => {
    await using server = await listening();
    const { experience } = await addExperience(server, { title: "Orbit" });
    const [ada, bob] = [await server.seed.user(), await server.seed.user()];
    await befriend(server, ada.userId, bob.userId);
    const adaClient = await signedIn(server.url, ada);
    const bobClient = await signedIn(server.url, bob);
    const bobRealtime = createRealtime(bobClient, { url: server.url, WebSocket: WebSocket as never });
    try {
      const invites: GameInviteEvent[] = [];
      const rosters: SessionMembersEvent[] = [];
      bobRealtime.on("game_invite", (e) => invites.push(e));
      bobRealtime.on("session_members", (e) => rosters.push(e));
      await bobRealtime.ready();
      const a = await adaClient.session.join({ experienceId: experience.id });
      await adaClient.session.inviteToSession({ sessionId: a.sessionId, userId: bob.userId });
      await expect.poll(() => invites.length).toBe(1);
      expect(invites[0]).toMatchObject({ type: "game_invite", title: "Orbit", sessionId: a.sessionId, from: { id: ada.userId } });
      // Rosters are in join order (ties by user id): the two joins at different times.
      server.clock.advance(1);
      await bobClient.session.join({ experienceId: experience.id, sessionId: invites[0]!.sessionId });
      await expect.poll(() => rosters.length).toBe(1);
      expect(rosters[0]!.members.map((m) => [m.user.id, m.isHost])).toEqual([[ada.userId, true], [bob.userId, false]]);
    } finally {
      bobRealtime.close();
    }
  });

  it("should reconnect after the connection drops and keep delivering", async () => {
    await using server = await listening();
    const ada = await server.seed.user();
    const realtime = createRealtime(await signedIn(server.url, ada), { url: server.url, WebSocket: WebSocket as never, backoffMs: 20 });
    try {
      const states: RealtimeState[] = [];
      const codes: number[] = [];
      realtime.onState((s, detail) => { states.push(s); if (detail) codes.push(detail.code); });
      const seen: unknown[] = [];
      realtime.on("presence", (e) => seen.push(e.presence));
      await realtime.ready();
      // The realtime endpoint restarts (as in a graceful shutdown): every connection closes with 1012, then it comes back.
      await server.realtime.close();
      await expect.poll(() => states.includes("reconnecting")).toBe(true);
      expect(codes).toEqual([RealtimeCloseCode.ServiceRestart]);
      const again = websocketAdapter(server.http, server.deps);
      try {
        await realtime.ready();
        server.deps.realtime.publish(ada.userId, { type: "presence", userId: "usr_friend", presence: "online" });
        await expect.poll(() => seen).toEqual(["online"]);
        expect(states.at(-1)).toBe("ready");
      } finally {
        realtime.close();
        await again.close();
      }
    } finally {
      realtime.close();
    }
    expect(realtime.state).toBe("closed");
  });

  it("should refresh a refused access token and authenticate again", async () => {
    await using server = await listening();
    const ada = await server.seed.user();
    const client = await signedIn(server.url, ada);
    // The access token expires on the server's clock; the client does not know (no expiresAt).
    server.clock.advance(16 * 60_000);
    const realtime = createRealtime(client, { url: server.url, WebSocket: WebSocket as never, backoffMs: 20 });
    try {
      const details: number[] = [];
      realtime.onState((_s, detail) => { if (detail) details.push(detail.code); });
      await realtime.ready();
      expect(details).toContain(4001);
      const tokens = await client.auth.getTokens();
      expect(tokens!.accessToken).not.toBe(ada.accessToken);
      expect(server.deps.realtime.isOnline(ada.userId)).toBe(true);
    } finally {
      realtime.close();
    }
  });

  it("should stop when the client signs out", async () => {
    await using server = await listening();
    const ada = await server.seed.user();
    const client = await signedIn(server.url, ada);
    const realtime = createRealtime(client, { url: server.url, WebSocket: WebSocket as never });
    await realtime.ready();
    await client.identity.signOut({});
    expect(realtime.state).toBe("closed");
    await expect.poll(() => server.deps.realtime.isOnline(ada.userId)).toBe(false);
  });
});
