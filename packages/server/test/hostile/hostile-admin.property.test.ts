import fc from "fast-check";
import { adminShapeTable, allAdminMethods, messageName, PRIMARY_INDEX, tables, type AdminMethodDesc, type TableDef, type Tx } from "@playfield/core";
import { createMemoryTokenStore } from "@playfield/client";
import { describe, expect, it } from "vitest";
import { ADMIN_URL, adminWorld } from "../admin-fixtures.js";
import { propertyRuns } from "../property-runs.js";
import { answerProblem, changedTables, withinMs } from "./hostile-world.js";
import { hostileBody, hostileFragment } from "./hostile-input.js";

/*
 * Hostile requests to every admin method, in process, from every kind of
 * caller (none, a player's token, each role, a made-up operator token):
 * never a 5xx, never a hang, an invalid_argument names a field, and a
 * refused call leaves the tables the admin API writes exactly as they were.
 */

const RUNS = propertyRuns("PLAYFIELD_FUZZ_RUNS", { memory: 400, database: 40 });
const shapes = adminShapeTable();
const methods = allAdminMethods().map((method) => {
  const input = shapes[messageName(method.input)]!;
  return { method, input, fields: new Set(input.fields.map((f) => f.name)) };
});

/** The tables an admin method may write: compared after a refusal, put back after every case. */
const WRITTEN: readonly TableDef<unknown>[] = [
  tables.users, tables.devices, tables.refreshTokens, tables.wallets, tables.ledger, tables.operators, tables.operatorSessions, tables.auditLog, tables.reports, tables.payouts,
] as readonly TableDef<unknown>[];

async function call(api: (request: Request) => Promise<Response | undefined>, method: AdminMethodDesc, body: string, token: string | undefined) {
  const response = await api(new Request(`${ADMIN_URL}${method.path}`, {
    method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) }, body,
  }));
  const text = await response!.text();
  let json: { code?: unknown; message?: unknown };
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    json = { message: text };
  }
  return { status: response!.status, body: json };
}

describe("hostile requests to every admin method, in process", () => {
  it(`should never answer 5xx or hang, name a field in invalid_argument, and change nothing when refused (${RUNS.numRuns} cases)`, async () => {
    await using w = await adminWorld();
    const { deps } = w.t.server;
    const internal: unknown[] = [];
    deps.onInternalError = (error) => { internal.push(error); };
    const player = await w.t.server.seed.user({ username: "target_1" });
    const callers = [
      { kind: "anonymous", token: undefined },
      { kind: "player", token: player.accessToken },
      { kind: "made-up", token: "pfop_madeup" },
      { kind: "admin", token: w.admin.token.get() },
      ...await Promise.all((["moderator", "support", "viewer"] as const).map(async (role) => ({ kind: role, token: (await w.operator(role)).token.get() }))),
    ];
    const me = await w.admin.operators.getMe();
    const reporter = await w.t.server.seed.user();
    const { reportId } = await w.t.client({ tokenStore: createMemoryTokenStore({ accessToken: reporter.accessToken, refreshToken: "", expiresAt: 0 }) })
      .safety.reportPlayer({ userId: player.userId, category: "scam", details: "x" });
    const known = [reportId, player.userId, player.deviceId, player.username, me.id, "admin", "viewer", `user:${player.userId}`, "1"];
    const textOf = async (tx: Tx) => {
      const text: Record<string, string> = {};
      for (const table of WRITTEN) text[table.name] = JSON.stringify(await tx.query(table, PRIMARY_INDEX));
      return text;
    };
    const rowsOf = async (tx: Tx) => {
      const rows = new Map<string, unknown[]>();
      for (const table of WRITTEN) rows.set(table.name, await tx.query(table, PRIMARY_INDEX));
      return rows;
    };
    const baseline = await deps.storage.transact(rowsOf, { readOnly: true });
    const baselineText = await deps.storage.transact(textOf, { readOnly: true });
    // Values that exist, so that some calls get past validation and not_found to the checks after them.
    const good: Record<string, unknown> = {
      userId: player.userId, deviceId: player.deviceId, operatorId: me.id, username: "admin", password: "wrong password", reason: "because",
      query: "target", credits: -5, idempotencyKey: "k1", role: "viewer", target: `user:${player.userId}`,
      reportId, outcome: "no_action", note: "because", status: "open",
    };
    const plausibleBody = (input: (typeof methods)[number]["input"]) =>
      fc.tuple(...input.fields.map((field) => fc.oneof(
        { weight: 3, arbitrary: fc.constant(JSON.stringify(good[field.name] ?? "")) },
        { weight: 1, arbitrary: hostileFragment(known) },
      ))).map((values) => `{${input.fields.map((field, i) => `${JSON.stringify(field.name)}:${values[i]}`).join(",")}}`);
    const cases = fc.constantFrom(...methods).chain(({ method, input, fields }) =>
      fc.record({ body: fc.oneof(hostileBody(input, known), plausibleBody(input)), caller: fc.constantFrom(...callers) }).map((c) => ({ ...c, method, fields })));
    await fc.assert(fc.asyncProperty(cases, async ({ method, fields, body, caller }) => {
      const answer = await withinMs(call(w.api, method, body, caller.token), 5_000, method.path);
      expect(answerProblem(answer, fields), `${method.path} as ${caller.kind}`).toBeNull();
      if (answer.status !== 200) {
        const changed = changedTables(baselineText, await deps.storage.transact(textOf, { readOnly: true }));
        // A failed sign-in counts in `throttles` by design; nothing else may change.
        expect(changed, `${method.path} as ${caller.kind} refused (${String(answer.body.message).slice(0, 120)}) but wrote`).toEqual([]);
      } else {
        await deps.storage.transact(async (tx) => {
          for (const table of WRITTEN) {
            for (const row of await tx.query(table, PRIMARY_INDEX)) await tx.delete(table, table.primaryKey(row));
            for (const row of baseline.get(table.name)!) await tx.put(table, structuredClone(row));
          }
        });
      }
      expect(internal).toEqual([]);
    }), RUNS);
  }, 120_000);
});
