import { describe, expect, it } from "vitest";
import { startServer, type StartedServer, type StartServerOptions } from "@playfield/server-memory";
import { RealtimeCloseCode } from "@playfield/core";
import { openSocket, readySocket } from "./realtime-sockets.js";
import { addExperience, befriend } from "./session-world.js";
import { createClient } from "@playfield/client";

async function listening(options: StartServerOptions = {}): Promise<StartedServer & AsyncDisposable> {
  const server = await startServer({ port: 0, ...options });
  return Object.assign(server, { [Symbol.asyncDispose]: () => server.close() });
}

const isRoster = (m: Record<string, unknown>) => m.type === "session_members";
const rosterIds = (m: Record<string, unknown>) => (m.members as { user: { id: string } }[]).map((x) => x.user.id);

describe("GET /realtime", () => {
  describe("handshake", () => {
    it("should answer ready with the user id to a valid access token", async () => {
      await using server = await listening();
      const ada = await server.seed.user();
      const socket = await readySocket(server.url, ada.accessToken);
      expect(socket.messages[0]).toEqual({ type: "ready", userId: ada.userId });
      expect(server.deps.realtime.isOnline(ada.userId)).toBe(true);
      socket.ws.close();
      await socket.closed;
      await expect.poll(() => server.deps.realtime.isOnline(ada.userId)).toBe(false);
    });

    it("should close with a clear reason for a bad token, a game token, a wrong first message or no auth in time", async () => {
      await using server = await listening({ websocket: { authTimeoutMs: 100 } });
      const ada = await server.seed.user();
      const bad = await openSocket(server.url);
      bad.send({ type: "auth", token: "not.a.token" });
      expect(await bad.closed).toMatchObject({ code: RealtimeCloseCode.Unauthenticated, reason: expect.stringMatching(/^unauthenticated: /) });
      const game = await openSocket(server.url);
      game.send({ type: "auth", token: await server.seed.gameToken(ada) });
      expect((await game.closed).code).toBe(RealtimeCloseCode.Unauthenticated);
      const wrong = await openSocket(server.url);
      wrong.send({ type: "hello" });
      expect(await wrong.closed).toMatchObject({ code: RealtimeCloseCode.BadFrame, reason: expect.stringMatching(/first message must be/) });
      const silent = await openSocket(server.url);
      expect(await silent.closed).toMatchObject({ code: RealtimeCloseCode.AuthTimeout, reason: expect.stringMatching(/^auth: /) });
    });

    it("should close the connection of a device that signs out", async () => {
      await using server = await listening({ websocket: { pingIntervalMs: 50 } });
      const ada = await server.seed.user();
      const socket = await readySocket(server.url, ada.accessToken);
      const client = createClient({ baseUrl: server.url });
      await client.auth.setTokens({ accessToken: ada.accessToken, refreshToken: ada.refreshToken });
      await client.identity.signOut({});
      expect(await socket.closed).toMatchObject({ code: RealtimeCloseCode.Unauthenticated, reason: expect.stringMatching(/signed out/) });
    });

    it("should refuse upgrades on other paths", async () => {
      await using server = await listening();
      const { WebSocket } = await import("ws");
      const ws = new WebSocket(`${server.url.replace("http", "ws")}/elsewhere`);
      await expect(new Promise((resolve, reject) => { ws.on("open", resolve); ws.on("error", reject); })).rejects.toThrow(/404/);
    });
  });

  describe("messages", () => {
    it("should answer ping with pong, an unknown type with an error event, and close on a malformed frame", async () => {
      await using server = await listening();
      const ada = await server.seed.user();
      const socket = await readySocket(server.url, ada.accessToken);
      socket.send({ type: "ping" });
      await socket.next((m) => m.type === "pong");
      socket.send({ type: "teleport" });
      expect(await socket.next((m) => m.type === "error")).toMatchObject({ about: "teleport", code: "invalid_argument" });
      // A frame that is not a JSON object with a string type is not answered: the connection closes.
      socket.send("[1,2]");
      expect(await socket.closed).toMatchObject({ code: RealtimeCloseCode.BadFrame, reason: "a frame is a JSON object with a string `type`" });
    });

    it("should deliver session_members to every member's connection on each join and leave", async () => {
      await using server = await listening();
      const { experience } = await addExperience(server);
      const [ada, bob] = [await server.seed.user(), await server.seed.user()];
      const [adaSocket, bobSocket] = await Promise.all([readySocket(server.url, ada.accessToken), readySocket(server.url, bob.accessToken)]);
      const adaClient = createClient({ baseUrl: server.url });
      await adaClient.auth.setTokens({ accessToken: ada.accessToken });
      const bobClient = createClient({ baseUrl: server.url });
      await bobClient.auth.setTokens({ accessToken: bob.accessToken });
      const a = await adaClient.session.join({ experienceId: experience.id });
      expect(rosterIds(await adaSocket.next(isRoster))).toEqual([ada.userId]);
      // Rosters are in join order (ties by user id): the two joins at different times.
      server.clock.advance(1);
      await bobClient.session.join({ experienceId: experience.id });
      const both = await bobSocket.next(isRoster);
      expect(both).toMatchObject({ sessionId: a.sessionId });
      expect(rosterIds(both)).toEqual([ada.userId, bob.userId]);
      await adaSocket.next((m) => isRoster(m) && rosterIds(m).length === 2);
      await adaClient.session.leave({ sessionId: a.sessionId });
      const after = await bobSocket.next((m) => isRoster(m) && rosterIds(m).length === 1);
      expect((after.members as { isHost: boolean }[])[0]!.isHost).toBe(true);
    });

    it("should deliver game_invite to the invited friend", async () => {
      await using server = await listening();
      const { experience } = await addExperience(server, { title: "Tide Pools" });
      const [ada, bob] = [await server.seed.user(), await server.seed.user()];
      await befriend(server, ada.userId, bob.userId);
      const bobSocket = await readySocket(server.url, bob.accessToken);
      const adaClient = createClient({ baseUrl: server.url });
      await adaClient.auth.setTokens({ accessToken: ada.accessToken });
      const a = await adaClient.session.join({ experienceId: experience.id });
      await adaClient.session.inviteToSession({ sessionId: a.sessionId, userId: bob.userId });
      const invite = await bobSocket.next((m) => m.type === "game_invite");
      expect(invite).toMatchObject({ experienceId: experience.id, sessionId: a.sessionId, title: "Tide Pools", from: { id: ada.userId } });
    });

    it("should relay signal messages between members of the same session only", async () => {
      await using server = await listening();
      const { experience } = await addExperience(server, { maxPlayers: 2 });
      const [ada, bob, cy] = [await server.seed.user(), await server.seed.user(), await server.seed.user()];
      const clients = await Promise.all([ada, bob, cy].map(async (u) => {
        const c = createClient({ baseUrl: server.url });
        await c.auth.setTokens({ accessToken: u.accessToken });
        return c;
      }));
      const s1 = await clients[0]!.session.join({ experienceId: experience.id });
      await clients[1]!.session.join({ experienceId: experience.id });
      const s2 = await clients[2]!.session.join({ experienceId: experience.id });
      expect(s2.sessionId).not.toBe(s1.sessionId);
      const [adaS, bobS, cyS] = await Promise.all([ada, bob, cy].map((u) => readySocket(server.url, u.accessToken)));
      adaS!.send({ type: "signal", sessionId: s1.sessionId, to: bob.userId, data: { sdp: "offer" } });
      expect(await bobS!.next((m) => m.type === "signal")).toEqual({ type: "signal", sessionId: s1.sessionId, from: ada.userId, data: { sdp: "offer" } });
      adaS!.send({ type: "signal", sessionId: s1.sessionId, to: cy.userId, data: { sdp: "x" } });
      expect(await adaS!.next((m) => m.type === "error")).toMatchObject({ about: "signal", code: "not_found" });
      cyS!.send({ type: "signal", sessionId: s1.sessionId, to: ada.userId, data: { sdp: "y" } });
      expect(await cyS!.next((m) => m.type === "error")).toMatchObject({ about: "signal", code: "not_found" });
      adaS!.send({ type: "signal", sessionId: s1.sessionId, to: bob.userId });
      expect(await adaS!.next((m) => m.type === "error" && m.code === "invalid_argument")).toMatchObject({ message: "data: required" });
      await new Promise((r) => setTimeout(r, 50));
      expect(cyS!.messages.filter((m) => m.type === "signal")).toEqual([]);
      expect(adaS!.messages.filter((m) => m.type === "signal")).toEqual([]);
    });

    it("should deliver every event to each of a user's connections", async () => {
      await using server = await listening();
      const ada = await server.seed.user();
      const sockets = await Promise.all([1, 2, 3].map(() => readySocket(server.url, ada.accessToken)));
      server.deps.realtime.publish(ada.userId, { type: "presence", userId: "usr_x", presence: "online" });
      for (const socket of sockets) expect(await socket.next((m) => m.type === "presence")).toEqual({ type: "presence", userId: "usr_x", presence: "online" });
      sockets[0]!.ws.close();
      await sockets[0]!.closed;
      await new Promise((r) => setTimeout(r, 20));
      expect(server.deps.realtime.isOnline(ada.userId)).toBe(true);
    });
  });

  describe("backpressure", () => {
    it("should disconnect a client that does not read its messages instead of buffering without bound", async () => {
      await using server = await listening({ websocket: { maxBufferedBytes: 256 * 1024, maxPendingMessages: 64 } });
      const [ada, bob] = [await server.seed.user(), await server.seed.user()];
      const slow = await readySocket(server.url, ada.accessToken);
      const reader = await readySocket(server.url, bob.accessToken);
      // Stop reading on one connection: the kernel buffers fill, then the server's.
      (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      const big = "x".repeat(64 * 1024);
      let sent = 0;
      while (server.deps.realtime.isOnline(ada.userId) && sent < 2000) {
        server.deps.realtime.publishMany([ada.userId, bob.userId], { type: "signal", sessionId: "flood", from: "usr_x", data: { i: sent++, big } });
        await new Promise((r) => setImmediate(r));
      }
      expect(server.deps.realtime.isOnline(ada.userId)).toBe(false);
      expect(sent).toBeLessThan(2000);
      // The connection that reads keeps its messages.
      expect(server.deps.realtime.isOnline(bob.userId)).toBe(true);
      await reader.next((m) => m.type === "signal" && (m.data as { i: number }).i === sent - 1, 4000);
      (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
      expect([RealtimeCloseCode.TooSlow, 1006]).toContain((await slow.closed).code);
      await expect.poll(() => server.realtime.size).toBe(1);
    });
  });
});
