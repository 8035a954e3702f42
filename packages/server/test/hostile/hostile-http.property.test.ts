import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostileBody, hostileString, nestedArrays, PROTOTYPE_NAMES } from "./hostile-input.js";
import { answerProblem, call, hostileWorld, methodTable, withinMs } from "./hostile-world.js";
import { propertyRuns } from "../property-runs.js";

/*
 * Hostile input over a real socket (the Node adapter in front of the same
 * handler), and to the routes beside the RPC layer: the sandbox checkout
 * page, content blobs and avatar headshots.
 */

const SOCKET_RUNS = propertyRuns("PLAYFIELD_FUZZ_SOCKET_RUNS", { memory: 150, database: 50 });
const ROUTE_RUNS = propertyRuns("PLAYFIELD_FUZZ_ROUTE_RUNS", { memory: 300, database: 100 });
const methods = methodTable();

/** A string as a path segment; one with a lone surrogate (not encodable) as U+FFFD. */
function pathSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return "%EF%BF%BD";
  }
}

describe("hostile requests over a real socket", () => {
  it(`should never answer 5xx or hang, name a field in invalid_argument, and change nothing when refused (${SOCKET_RUNS.numRuns} cases)`, async () => {
    await using world = await hostileWorld("listening");
    const cases = fc.constantFrom(...methods).chain(({ method, input, fields }) =>
      fc.record({ body: hostileBody(input, world.known), caller: fc.constantFrom(...world.callers) }).map((c) => ({ ...c, method, fields })));
    await fc.assert(fc.asyncProperty(cases, async ({ method, fields, body, caller }) => {
      const answer = await withinMs(call(world.fetch, world.baseUrl, method, body, caller.token), 5_000, method.path);
      expect(answerProblem(answer, fields), `${method.path} as ${caller.kind}`).toBeNull();
      expect(await world.settle(answer.status !== 200), `${method.path} refused but wrote`).toEqual([]);
      expect(world.internalErrors).toEqual([]);
    }), SOCKET_RUNS);
  }, 120_000);
});

describe("hostile requests to the checkout page, content and headshot routes", () => {
  it(`should never answer 5xx or hang, and change nothing unless an order is paid or cancelled (${ROUTE_RUNS.numRuns} cases)`, async () => {
    await using world = await hostileWorld();
    const segment = fc.oneof(
      hostileString(world.known).filter((s) => s.length < 2_000).map(pathSegment),
      fc.constantFrom("%ZZ", "%", "%00", "%E0%A4%A", "..", "%2e%2e", world.valueFor("orderId")!, world.valueFor("sha256")!, world.valueFor("userId")!),
    );
    const path = fc.tuple(fc.constantFrom("/checkout/", "/content/", "/avatars/"), segment, fc.constantFrom("", "/headshot.svg", "/", "?v=1", "?v=constructor"))
      .map(([route, id, tail]) => `${route}${id}${tail}`);
    const body = fc.oneof(
      fc.constantFrom("action=pay", "action=cancel", "action=constructor", "action=__proto__&action=pay", "action=", ""),
      fc.string({ maxLength: 50 }),
      fc.constantFrom(nestedArrays(10_000), "x".repeat(100_000)),
    );
    const headers = fc.dictionary(fc.constantFrom("content-type", "if-none-match", "range", "accept", "authorization"), fc.oneof(
      fc.constantFrom(...PROTOTYPE_NAMES, "application/x-www-form-urlencoded", "text/plain", "*", `"${world.valueFor("sha256")}"`, "bytes=0-1", "Bearer x"),
      fc.string({ maxLength: 20 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
    ));
    const method = fc.constantFrom("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH");
    await fc.assert(fc.asyncProperty(path, method, body, headers, async (p, verb, text, h) => {
      const init: RequestInit = verb === "GET" || verb === "HEAD" ? { method: verb, headers: h } : { method: verb, headers: h, body: text };
      const response = await withinMs(world.server.handle(new Request(`http://playfield.test${p}`, init)), 5_000, `${verb} ${p}`);
      await response.arrayBuffer();
      expect(response.status, `${verb} ${p.slice(0, 120)}`).toBeLessThan(500);
      expect(await world.settle(response.status >= 400), `${verb} ${p.slice(0, 120)} refused but wrote`).toEqual([]);
      expect(world.internalErrors).toEqual([]);
    }), ROUTE_RUNS);
  }, 120_000);
});
