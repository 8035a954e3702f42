import { describe, expect, it } from "vitest";
import { createRealtime, friendPresence, type FriendPresence, type PresenceEvent } from "../src/index.js";
import type { ClientAuth } from "../src/token-session.js";
import { FakeSocket } from "./fake-socket.js";

const auth = {
  isSignedIn: async () => true,
  getTokens: async () => ({ accessToken: "t", refreshToken: "r", expiresAt: 0 }),
  setTokens: async () => undefined,
  clear: async () => undefined,
  refresh: async () => ({ accessToken: "t", refreshToken: "r", expiresAt: 0 }),
  subscribe: () => () => undefined,
  getGameToken: () => undefined,
  setGameToken: () => undefined,
} satisfies ClientAuth;

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

async function readyRealtime() {
  const realtime = createRealtime({ auth }, { url: "https://api.test", WebSocket: FakeSocket, pingIntervalMs: 0, backoffMs: 1 });
  await flush();
  const socket = FakeSocket.last!;
  socket.open();
  socket.receive({ type: "ready", userId: "usr_me" });
  await realtime.ready();
  return { realtime, socket };
}

describe("createRealtime presence", () => {
  it("should hand presence events to their typed handler", async () => {
    const { realtime, socket } = await readyRealtime();
    const heard: PresenceEvent[] = [];
    realtime.on("presence", (event) => heard.push(event));
    socket.receive({ type: "presence", userId: "usr_bob", presence: "in_game", experienceId: "exp_1" });
    expect(heard).toEqual([{ type: "presence", userId: "usr_bob", presence: "in_game", experienceId: "exp_1" }]);
    realtime.close();
  });
});

describe("friendPresence", () => {
  it("should keep friends who are not offline, with a new map on each change", async () => {
    const { realtime, socket } = await readyRealtime();
    const friends = friendPresence(realtime);
    const seen: ReadonlyMap<string, FriendPresence>[] = [];
    friends.subscribe((current) => seen.push(current));
    socket.receive({ type: "presence", userId: "usr_bob", presence: "online" });
    socket.receive({ type: "presence", userId: "usr_carl", presence: "in_game", experienceId: "exp_1" });
    socket.receive({ type: "presence", userId: "usr_bob", presence: "offline" });
    expect([...friends.current]).toEqual([["usr_carl", { presence: "in_game", experienceId: "exp_1" }]]);
    expect(friends.of("usr_bob")).toEqual({ presence: "offline" });
    expect(friends.of("usr_carl")).toEqual({ presence: "in_game", experienceId: "exp_1" });
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
    expect(seen.at(-1)).toBe(friends.current);
    // An offline word about someone not listed changes nothing.
    socket.receive({ type: "presence", userId: "usr_dan", presence: "offline" });
    expect(seen).toHaveLength(3);
    realtime.close();
  });

  it("should forget everything when the connection drops and fill again from the next one's greeting", async () => {
    const { realtime, socket } = await readyRealtime();
    const friends = friendPresence(realtime);
    socket.receive({ type: "presence", userId: "usr_bob", presence: "online" });
    socket.drop(1006);
    expect(friends.current.size).toBe(0);
    expect(friends.of("usr_bob")).toEqual({ presence: "offline" });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const next = FakeSocket.last!;
    expect(next).not.toBe(socket);
    next.open();
    next.receive({ type: "ready", userId: "usr_me" });
    next.receive({ type: "presence", userId: "usr_bob", presence: "in_game", experienceId: "exp_2" });
    expect(friends.of("usr_bob")).toEqual({ presence: "in_game", experienceId: "exp_2" });
    friends.stop();
    next.receive({ type: "presence", userId: "usr_bob", presence: "offline" });
    expect(friends.of("usr_bob")).toEqual({ presence: "in_game", experienceId: "exp_2" });
    realtime.close();
  });
});
