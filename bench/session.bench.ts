/*
 * SessionService and realtime figures:
 * 1. Join and Heartbeat over HTTP (Node server in a child process, loaded by
 *    wrk: bench/lib/http-rounds.ts), against the authenticated GetMe of the
 *    same run.
 *    Join here is a retried Join of a seated player (one transaction, one
 *    token signed), since the load generator repeats one request.
 * 2. Realtime fan-out: one `session_members` to the 100 members of a session,
 *    each on its own WebSocket (time from the Join call to the last delivery),
 *    against the same roster change delivered to a session of one.
 *
 *   node --conditions=@playfield/source --import tsx bench/session.bench.ts
 */
import { tables } from "@playfield/core";
import { createClient } from "@playfield/client";
import { startServer, type StartedServer } from "@playfield/server-memory";
import { WebSocket } from "ws";
import { startChild } from "./lib/child.js";
import { assertValid, printHttpTable, runHttpRounds, type HttpCase } from "./lib/http-rounds.js";
import { formatDuration } from "./lib/measure.js";

/** Writes a published peer experience straight into storage. */
async function addExperience(server: StartedServer, id: string, maxPlayers: number): Promise<void> {
  const now = server.clock.now();
  await server.deps.storage.transact(async (tx) => {
    await tx.put(tables.placeVersions, {
      id: `${id}_v1`, experienceId: id, placeId: "plc", number: 1, contentUrls: { web: "https://cdn.test/web.json" }, engineMin: {},
      status: "live", rejectReason: "", notes: "", createdAt: now,
    });
    await tx.put(tables.experiences, {
      id, creatorId: "usr_creator", title: "Bench", description: "", genre: "action", thumbnailUrl: "", visibility: "public",
      hostingTier: "peer", maxPlayers, startPlaceId: "plc", liveVersionId: `${id}_v1`, createdAt: now, updatedAt: now,
      visits: 0, favorites: 0, upVotes: 0, downVotes: 0,
    });
  });
}

if (process.env.PLAYFIELD_SESSION_BENCH_CHILD === "1") {
  // The child: a production-configured server, one seated player.
  const server = await startServer({ port: 0, environment: "production", sessionSweepMs: 0 });
  await addExperience(server, "exp_bench", 100);
  const user = await server.seed.user();
  const client = createClient({ baseUrl: server.url });
  await client.auth.setTokens({ accessToken: user.accessToken });
  const joined = await client.session.join({ experienceId: "exp_bench" });
  console.log(JSON.stringify({ url: server.url, token: user.accessToken, sessionId: joined.sessionId }));
} else {
  await httpFigures();
  await fanOutFigures();
  process.exit(process.exitCode ?? 0);
}

async function httpFigures(): Promise<void> {
  process.env.PLAYFIELD_SESSION_BENCH_CHILD = "1";
  const { child, firstLine } = await startChild("../session.bench.ts");
  delete process.env.PLAYFIELD_SESSION_BENCH_CHILD;
  try {
    const { url, token, sessionId } = JSON.parse(firstLine) as { url: string; token: string; sessionId: string };
    const headers = { authorization: `Bearer ${token}` };
    const ok = (status: number) => status === 200;
    const getMe = "GetMe (access token)";
    const cases: HttpCase[] = [
      { name: getMe, short: "GetMe", pid: child.pid!, url: `${url}/svc.platform.v1.IdentityService/GetMe`, body: "{}", headers, expect: ok },
      { name: "Heartbeat", pid: child.pid!, url: `${url}/svc.platform.v1.SessionService/Heartbeat`, body: JSON.stringify({ sessionId }), headers, against: getMe, expect: ok },
      {
        name: "Join (retried, signs a game token)", pid: child.pid!, url: `${url}/svc.platform.v1.SessionService/Join`, headers, against: getMe,
        body: JSON.stringify({ experienceId: "exp_bench", platform: "web" }), expect: (status, body) => ok(status) && body.includes(sessionId),
      },
    ];
    const rounds = await runHttpRounds(cases, { rounds: Number(process.env.BENCH_ROUNDS ?? 3), seconds: Number(process.env.BENCH_SECONDS ?? 3) });
    console.log(`\n${rounds.setup}`);
    printHttpTable("SessionService over HTTP (Node server in a child process) against GetMe", cases.map((c) => rounds.figures.get(c.name)!));
    assertValid(rounds);
  } finally {
    child.kill();
  }
}

interface Listener {
  userId: string;
  client: ReturnType<typeof createClient>;
  /** Resolves at the next `session_members` with `count` members. */
  rosterOf(count: number): Promise<void>;
  ws: WebSocket;
}

async function listener(server: StartedServer): Promise<Listener> {
  const user = await server.seed.user();
  const client = createClient({ baseUrl: server.url });
  await client.auth.setTokens({ accessToken: user.accessToken });
  const ws = new WebSocket(`${server.url.replace("http", "ws")}/realtime`);
  let waiting: { count: number; resolve: () => void } | null = null;
  await new Promise<void>((resolve, reject) => {
    ws.once("error", reject);
    ws.on("message", (data) => {
      const m = JSON.parse(data.toString()) as { type: string; members?: unknown[] };
      if (m.type === "ready") resolve();
      if (m.type === "session_members" && waiting && m.members!.length === waiting.count) {
        const w = waiting;
        waiting = null;
        w.resolve();
      }
    });
    ws.once("open", () => ws.send(JSON.stringify({ type: "auth", token: user.accessToken })));
  });
  return {
    userId: user.userId, client, ws,
    rosterOf: (count) => new Promise((resolve) => { waiting = { count, resolve }; }),
  };
}

/** Median ms from a Join call to the roster reaching every member's socket. */
async function rosterDelivery(experienceId: string, seated: Listener[], mover: Listener, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const all = [...seated, mover];
    const delivered = Promise.all(all.map((l) => l.rosterOf(all.length)));
    const start = performance.now();
    // Matchmaking: the seated session is the only open one (or none, for a session of one).
    const { sessionId } = await mover.client.session.join({ experienceId });
    await delivered;
    times.push(performance.now() - start);
    const left = Promise.all(seated.map((l) => l.rosterOf(seated.length)));
    await mover.client.session.leave({ sessionId });
    if (seated.length > 0) await left;
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function fanOutFigures(): Promise<void> {
  const server = await startServer({ port: 0, environment: "production", sessionSweepMs: 0 });
  try {
    await addExperience(server, "exp_big", 200);
    await addExperience(server, "exp_one", 200);
    const seated: Listener[] = [];
    for (let i = 0; i < 99; i++) seated.push(await listener(server));
    const first = await seated[0]!.client.session.join({ experienceId: "exp_big" });
    for (const l of seated.slice(1)) await l.client.session.join({ experienceId: "exp_big", sessionId: first.sessionId });
    const mover = await listener(server);
    const alone = await listener(server);
    const runs = Number(process.env.BENCH_RUNS ?? 31);
    // Warm up both paths, then measure them in turns.
    await rosterDelivery("exp_one", [], alone, 5);
    await rosterDelivery("exp_big", seated, mover, 5);
    const one = await rosterDelivery("exp_one", [], alone, runs);
    const hundred = await rosterDelivery("exp_big", seated, mover, runs);
    console.log("\n### Realtime fan-out of one session_members (Join call → last delivery, median)\n");
    console.log("| case | time | vs 1 member |");
    console.log("|---|---:|---:|");
    console.log(`| session of 1 (baseline) | ${formatDuration(one)} | 1.00 |`);
    console.log(`| session of 100, each on its own WebSocket | ${formatDuration(hundred)} | ${(hundred / one).toFixed(2)} |`);
    for (const l of [...seated, mover, alone]) l.ws.close();
  } finally {
    await server.close();
  }
}
