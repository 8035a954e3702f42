/*
 * HTTP throughput of the Node server, loaded by wrk (a native generator in
 * its own process) against a bare node:http JSON echo in the same run, and
 * the same table for fastify answering the same JSON. Each server runs in
 * its own process. Targets: GetMe ≥ 0.7 of the echo; Datastore Get and Set
 * ≥ 0.8 of GetMe; BuyItem ≥ 0.6 of GetMe; the fetch path (GET /healthz)
 * ≥ 0.5 of the echo. The bench fails (exit 1) when wrk, not the server, is
 * the limit (bench/lib/generator-check.ts) or when a case answers errors.
 *
 *   npm run bench -- http
 *   node --conditions=@playfield/source --import tsx bench/http.bench.ts
 *
 * BENCH_ROUNDS (default 5) and BENCH_SECONDS (default 3) set the rounds.
 */
import { startChild } from "./lib/child.js";
import { assertValid, printHttpTable, runHttpRounds, type HttpCase } from "./lib/http-rounds.js";

const ok = (status: number) => status === 200;
const echo = await startChild("./echo-server.ts");
const playfield = await startChild("./playfield-server.ts");
const children = [echo, playfield];
try {
  const { url, userId, token, gameToken, itemId } = JSON.parse(playfield.firstLine) as { url: string; userId: string; token: string; gameToken: string; itemId: string };
  const rpc = (method: string) => `/svc.platform.v1.${method}`;
  const calls = {
    getMe: { path: rpc("IdentityService/GetMe"), body: "{}", token },
    get: { path: rpc("DatastoreService/Get"), body: JSON.stringify({ key: "save" }), token: gameToken },
    set: { path: rpc("DatastoreService/Set"), body: JSON.stringify({ key: "save", value: JSON.stringify({ level: 3, coins: 120 }) }), token: gameToken },
    buy: { path: rpc("EconomyService/BuyItem"), body: JSON.stringify({ itemId, expectedPrice: 1 }), token },
    packs: { path: rpc("EconomyService/ListCreditPacks"), body: "{}", token: null },
  };
  // Record Playfield's answers (Set first, so that Get finds the entry) for the peer to send back.
  const answers: Record<string, string> = {};
  for (const call of [calls.set, calls.getMe, calls.get, calls.buy, calls.packs]) {
    const response = await fetch(`${url}${call.path}`, {
      method: "POST", body: call.body,
      headers: { "content-type": "application/json", ...(call.token ? { authorization: `Bearer ${call.token}` } : {}) },
    });
    if (response.status !== 200) throw new Error(`${call.path}: ${response.status} ${await response.text()}`);
    answers[call.path] = await response.text();
  }
  answers["/healthz"] = await (await fetch(`${url}/healthz`)).text();
  process.env.PLAYFIELD_BENCH_ANSWERS = JSON.stringify({ token, answers });
  const fastify = await startChild("./fastify-server.ts");
  delete process.env.PLAYFIELD_BENCH_ANSWERS;
  children.push(fastify);

  const echoCase: HttpCase = { name: "bare node:http JSON echo", short: "echo", pid: echo.child.pid!, url: `${echo.firstLine}/echo`, body: "{}", expect: ok };
  /** The six cases of one server; names carry the server's label. */
  const casesOf = (label: string, pid: number, base: string, answerHolds: (path: string, body: string) => boolean): HttpCase[] => {
    const name = (what: string) => `${label}: ${what}`;
    const post = (what: string, call: (typeof calls)[keyof typeof calls], against: string, target?: number): HttpCase => ({
      name: name(what), short: what.split(" ")[0], pid, url: `${base}${call.path}`, body: call.body, against, target,
      headers: call.token ? { authorization: `Bearer ${label === "Playfield" ? call.token : token}` } : {},
      expect: (status, body) => ok(status) && answerHolds(call.path, body),
    });
    const getMe = name("GetMe (access token)");
    return [
      post("GetMe (access token)", calls.getMe, echoCase.name, 0.7),
      post("Datastore Get (game token)", calls.get, getMe, 0.8),
      post("Datastore Set (game token)", calls.set, getMe, 0.8),
      post("BuyItem (developer product, 1 credit)", calls.buy, getMe, 0.6),
      post("ListCreditPacks (no auth)", calls.packs, echoCase.name),
      { name: name("GET /healthz"), pid, url: `${base}/healthz`, against: echoCase.name, target: 0.5, expect: (status, body) => ok(status) && body.includes("ok") },
    ];
  };
  // Playfield's answers must be the real ones (the user's id, the entry, the item); the peer's must be the recorded bytes.
  const playfieldCases = casesOf("Playfield", playfield.child.pid!, url, (path, body) => {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const recorded = JSON.parse(answers[path]!) as Record<string, unknown>;
    return Object.keys(recorded).every((key) => key in parsed) && (!path.endsWith("/GetMe") || body.includes(userId));
  });
  const fastifyCases = casesOf("fastify", fastify.child.pid!, fastify.firstLine, (path, body) => body === answers[path]);
  const rounds = await runHttpRounds([echoCase, ...playfieldCases, ...fastifyCases], {
    rounds: Number(process.env.BENCH_ROUNDS ?? 5),
    seconds: Number(process.env.BENCH_SECONDS ?? 3),
  });
  console.log(`\n${rounds.setup}\n`);
  for (const line of rounds.checks) console.log(`${line}\n`);
  const pick = (cases: HttpCase[]) => [echoCase, ...cases].map((c) => rounds.figures.get(c.name)!);
  printHttpTable("Playfield Node server (in memory, production settings) against a bare node:http JSON echo", pick(playfieldCases));
  printHttpTable("Peer: fastify answering the same JSON (no state, no token verification), same echo", pick(fastifyCases));
  assertValid(rounds);
} finally {
  for (const c of children) c.child.kill();
}
