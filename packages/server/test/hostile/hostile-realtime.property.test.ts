import fc from "fast-check";
import { realtime, RealtimeCloseCode } from "@playfield/core";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { startServer } from "@playfield/server-memory";
import { hostileFragment, nestedArrays, nestedObjects, PROTOTYPE_NAMES } from "./hostile-input.js";
import { withinMs } from "./hostile-world.js";

/*
 * Hostile frames on the realtime WebSocket, before and after `auth`: not
 * JSON, binary, over the size limit, nested deep, unknown types, every
 * frame type with wrong fields, floods. The process never fails, the frames
 * never reach another user, every event sent is one the core describes, a
 * refusal names a field, and a closed connection gets a documented code.
 */

const RUNS = Number(process.env.PLAYFIELD_FUZZ_REALTIME_RUNS ?? 120);
const CLOSE_CODES = new Set<number>(Object.values(RealtimeCloseCode));
const FRAME_FIELDS = [...new Set(realtime.CLIENT_FRAME_SCHEMAS.flatMap((schema) => Object.keys(schema.shape)))];
const FRAME_TYPES = realtime.CLIENT_FRAME_SCHEMAS.map((schema) => schema.shape.type.value);

type Frame = { text: string } | { binary: Uint8Array } | { auth: "own" | "other" | "garbage" } | { flood: number };

function frameArbitrary(knownIds: string[]): fc.Arbitrary<Frame> {
  const fragment = hostileFragment(knownIds);
  const shaped = fc.record({
    type: fc.oneof(fc.constantFrom(...FRAME_TYPES), fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 10 })),
    fields: fc.array(fc.tuple(fc.constantFrom(...FRAME_FIELDS, ...PROTOTYPE_NAMES), fragment), { maxLength: 5 }),
  }).map(({ type, fields }) => `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${v},`).join("")}"type":${JSON.stringify(type)}}`);
  return fc.oneof(
    { weight: 6, arbitrary: shaped.map((text) => ({ text })) },
    { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 30 }), fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v))).map((text) => ({ text })) },
    { weight: 1, arbitrary: fc.constantFrom(nestedArrays(20_000), `{"type":"signal","sessionId":"s","to":"u","data":${nestedObjects(5_000)}}`, `{"type":"ping","x":"${"y".repeat(70_000)}"}`).map((text) => ({ text })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }).map((binary) => ({ binary })) },
    { weight: 2, arbitrary: fc.constantFrom("own", "other", "garbage").map((auth) => ({ auth: auth as "own" | "other" | "garbage" })) },
    { weight: 1, arbitrary: fc.constantFrom(150).map((flood) => ({ flood })) },
  );
}

interface Connection {
  ws: WebSocket;
  messages: Record<string, unknown>[];
  closed: Promise<{ code: number; reason: string }>;
  isClosed(): boolean;
}

function connect(url: string): Promise<Connection> {
  const ws = new WebSocket(`${url.replace(/^http/, "ws")}/realtime`);
  const messages: Record<string, unknown>[] = [];
  let done = false;
  ws.on("message", (data) => messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on("close", (code, reason) => { done = true; resolve({ code, reason: reason.toString() }); }));
  ws.on("error", () => {});
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve({ ws, messages, closed, isClosed: () => done }));
    ws.once("error", reject);
  });
}

/** Why an event the server sent breaks the core's description, or null. */
function eventProblem(event: Record<string, unknown>): string | null {
  const schema = typeof event.type === "string" ? realtime.SERVER_EVENTS.get(event.type) : undefined;
  if (!schema) return `an event of no described type: ${JSON.stringify(event).slice(0, 200)}`;
  const parsed = schema.safeParse(event);
  if (!parsed.success) return `a ${String(event.type)} event breaking its schema: ${parsed.error.issues[0]?.message}`;
  if (event.type === "error" && event.code === "invalid_argument") {
    const root = /^([A-Za-z_]+)(?:[.[][^]*?)?: \S/.exec(String(event.message))?.[1];
    if (root === undefined || !(FRAME_FIELDS.includes(root) || root === "frame")) return `a refusal naming no field: ${String(event.message)}`;
  }
  if (event.code === "internal") return `an internal error: ${String(event.message)}`;
  return null;
}

describe("hostile frames on the realtime WebSocket", () => {
  it(`should never fail the process, never reach another user, describe every event, and close with documented codes (${RUNS} connections)`, async () => {
    const internalErrors: unknown[] = [];
    const server = await startServer({ port: 0, sessionSweepMs: 0, onInternalError: (error) => { internalErrors.push(error); } });
    try {
      const attacker = await server.seed.user({ username: "attacker_1" });
      const bystander = await server.seed.user({ username: "bystander_1" });
      const game = await server.seed.gameToken(attacker);
      // The bystander blocked the attacker: nothing the attacker sends may reach them, a valid DM included.
      const blocked = await fetch(`${server.url}/svc.platform.v1.SocialService/Block`, {
        method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${bystander.accessToken}` }, body: JSON.stringify({ userId: attacker.userId }),
      });
      expect(blocked.status).toBe(200);
      const watch = await connect(server.url);
      watch.ws.send(JSON.stringify({ type: "auth", token: bystander.accessToken }));
      await withinMs((async () => { while (!watch.messages.some((m) => m.type === "ready")) await new Promise((r) => setTimeout(r, 5)); })(), 2_000, "bystander ready");
      const tokens = { own: attacker.accessToken, other: game, garbage: "x.y.z" };
      const frames = fc.array(frameArbitrary([bystander.userId, attacker.userId, `dm:${bystander.userId}`]), { minLength: 1, maxLength: 6 });

      await fc.assert(fc.asyncProperty(fc.boolean(), frames, async (authFirst, sequence) => {
        const c = await connect(server.url);
        try {
          if (authFirst) {
            c.ws.send(JSON.stringify({ type: "auth", token: attacker.accessToken }));
            await withinMs((async () => { while (!c.messages.some((m) => m.type === "ready")) await new Promise((r) => setTimeout(r, 2)); })(), 2_000, "ready");
          }
          for (const frame of sequence) {
            if (c.isClosed()) break;
            if ("text" in frame) c.ws.send(frame.text);
            else if ("binary" in frame) c.ws.send(frame.binary);
            else if ("auth" in frame) c.ws.send(JSON.stringify({ type: "auth", token: tokens[frame.auth] }));
            else for (let i = 0; i < frame.flood; i++) c.ws.send("{\"type\":\"ping\"}");
          }
          // Pings until one is answered (the connection lives) or the connection closes, with a code.
          const settled = (async () => {
            for (let i = 0; !c.isClosed() && !c.messages.some((m) => m.type === "pong"); i++) {
              if (i % 50 === 0) c.ws.send(JSON.stringify({ type: "ping", probe: true }));
              await new Promise((r) => setTimeout(r, 5));
            }
          })();
          await withinMs(settled, 3_000, `no pong and no close after ${JSON.stringify(sequence).slice(0, 300)}`);
          if (c.isClosed()) {
            const { code } = await c.closed;
            expect(CLOSE_CODES.has(code), `closed with undocumented code ${code}`).toBe(true);
          }
          for (const event of c.messages) expect(eventProblem(event)).toBeNull();
          expect(watch.messages.map((m) => m.type), "a frame reached another user").toEqual(["ready"]);
          expect(watch.isClosed()).toBe(false);
          expect(internalErrors.map(String)).toEqual([]);
        } finally {
          c.ws.terminate();
        }
      }), { numRuns: RUNS });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  }, 120_000);
});
