import { describe, expect, it, vi } from "vitest";
import { createRealtime } from "../src/index.js";
import type { ClientAuth } from "../src/token-session.js";
import type { Tokens } from "../src/token-store.js";
import { FakeSocket } from "./fake-socket.js";

/** A token session stand-in: refresh hands out numbered tokens. */
function fakeAuth(refreshWorks = true) {
  let tokens: Tokens | undefined = { accessToken: "t0", refreshToken: "r0", expiresAt: 0 };
  const listeners = new Set<(t: Tokens | undefined) => void>();
  let n = 0;
  const set = (next: Tokens | undefined) => { tokens = next; for (const l of listeners) l(next); };
  const auth = {
    isSignedIn: async () => tokens !== undefined,
    getTokens: async () => tokens,
    setTokens: async (t) => set(t && { accessToken: t.accessToken, refreshToken: t.refreshToken ?? "", expiresAt: t.expiresAt ?? 0 }),
    clear: async () => set(undefined),
    refresh: vi.fn(async () => {
      if (!refreshWorks) {
        set(undefined);
        throw new Error("refused");
      }
      n += 1;
      set({ accessToken: `t${n}`, refreshToken: `r${n}`, expiresAt: 0 });
      return tokens!;
    }),
    subscribe: (l) => { listeners.add(l); return () => { listeners.delete(l); }; },
    getGameToken: () => undefined,
    setGameToken: () => undefined,
  } satisfies ClientAuth;
  return auth;
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("createRealtime", () => {
  it("should authenticate first, derive the realtime URL, and hand messages to typed handlers", async () => {
    FakeSocket.all = [];
    const realtime = createRealtime({ auth: fakeAuth() }, { url: "https://api.test/", WebSocket: FakeSocket, pingIntervalMs: 0 });
    await flush();
    const socket = FakeSocket.all[0]!;
    expect(socket.url).toBe("wss://api.test/realtime");
    socket.open();
    expect(socket.sent).toEqual([{ type: "auth", token: "t0" }]);
    const invites: string[] = [];
    realtime.on("game_invite", (e) => invites.push(e.title));
    socket.receive({ type: "ready", userId: "usr_1" });
    await realtime.ready();
    socket.receive({ type: "game_invite", from: {}, experienceId: "x", sessionId: "s", title: "Orbit" });
    expect(invites).toEqual(["Orbit"]);
    expect(realtime.signal("s", "usr_2", { sdp: 1 })).toBe(true);
    expect(socket.sent.at(-1)).toEqual({ type: "signal", sessionId: "s", to: "usr_2", data: { sdp: 1 } });
    realtime.close();
    expect(realtime.send({ type: "ping" })).toBe(false);
  });

  it("should reconnect with growing delays and reset them once ready", async () => {
    vi.useFakeTimers();
    try {
      FakeSocket.all = [];
      vi.spyOn(Math, "random").mockReturnValue(0.5);
      const realtime = createRealtime({ auth: fakeAuth() }, { url: "ws://h/realtime", WebSocket: FakeSocket, backoffMs: 100, maxBackoffMs: 400, pingIntervalMs: 0 });
      await vi.advanceTimersByTimeAsync(0);
      const delays: number[] = [];
      for (let i = 0; i < 4; i++) {
        FakeSocket.all.at(-1)!.drop(1006);
        const before = FakeSocket.all.length;
        let waited = 0;
        while (FakeSocket.all.length === before) { await vi.advanceTimersByTimeAsync(10); waited += 10; }
        delays.push(waited);
      }
      expect(delays).toEqual([100, 200, 400, 400]);
      const socket = FakeSocket.all.at(-1)!;
      socket.open();
      socket.receive({ type: "ready", userId: "u" });
      socket.drop(1006);
      const before = FakeSocket.all.length;
      await vi.advanceTimersByTimeAsync(100);
      expect(FakeSocket.all.length).toBe(before + 1);
      realtime.close();
    } finally {
      vi.useRealTimers();
      vi.restoreAllMocks();
    }
  });

  it("should refresh the token after 4001 and send refreshed tokens on a live connection", async () => {
    FakeSocket.all = [];
    const auth = fakeAuth();
    const realtime = createRealtime({ auth }, { url: "ws://h/realtime", WebSocket: FakeSocket, pingIntervalMs: 0 });
    await flush();
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop(4001, "unauthenticated: token expired");
    await flush();
    await flush();
    expect(auth.refresh).toHaveBeenCalledTimes(1);
    const second = FakeSocket.all[1]!;
    second.open();
    expect(second.sent[0]).toEqual({ type: "auth", token: "t1" });
    second.receive({ type: "ready", userId: "u" });
    await auth.refresh();
    expect(second.sent.at(-1)).toEqual({ type: "auth", token: "t2" });
    realtime.close();
  });

  it("should stop when the refresh is refused", async () => {
    FakeSocket.all = [];
    const realtime = createRealtime({ auth: fakeAuth(false) }, { url: "ws://h/realtime", WebSocket: FakeSocket, pingIntervalMs: 0 });
    await flush();
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop(4001);
    await flush();
    await flush();
    expect(realtime.state).toBe("closed");
    expect(FakeSocket.all).toHaveLength(1);
  });
});
