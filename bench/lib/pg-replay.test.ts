import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FLUSH } from "../../packages/storage-postgres/src/whole-messages.js";
import { adminQuery } from "../../packages/storage-postgres/test/postgres-schema.js";
import { hasPgbench, inWrites, recordCalls, replay, type Recorded } from "./pg-replay.js";

const url = inject("postgresUrl");
const save = { key: "save", value: JSON.stringify({ level: 7 }) };

describe.skipIf(url === null)("pg-replay: PostgreSQL alone replaying Playfield's messages", () => {
  let recorded: Recorded;
  beforeAll(async () => {
    recorded = await recordCalls(url!, 2, [
      { name: "Set", path: "/svc.platform.v1.DatastoreService/Set", request: (p) => ({ body: save, token: p.gameToken }) },
    ]);
  }, 60_000);
  afterAll(() => recorded?.drop());

  it("should record each player's call as messages on the bench schema", () => {
    expect(recorded.messages.get("Set")).toBeGreaterThanOrEqual(1);
    const scripts = recorded.scripts.get("Set")!;
    expect(scripts).toHaveLength(2);
    // Each statement executes one the connection prepared: the PREPAREs go apart, every connection of pgbench sends them first.
    for (const script of scripts) expect(script).toMatch(/^BEGIN .*EXECUTE pf_/s);
    expect(recorded.prepares.some((text) => text.startsWith("PREPARE pf_") && text.includes(`"${recorded.schema}"."datastore_entries"`))).toBe(true);
    // The warm Set checks its copies (of the entry and its usage shard), the entry's with its write as one statement
    // (a value of the same length leaves the shard row as it is): each prepared so as never to fail, and to write all the same.
    const checks = recorded.prepares.filter((text) => / SELECT 1 \/ /.test(text));
    expect(checks.length).toBeGreaterThanOrEqual(2);
    for (const check of checks) expect(check).toMatch(/ SELECT 1 \/ \((count\(\*\)::int \+ 1|2 - count\(\*\)::int)\) AS ok /);
    expect(checks.filter((check) => / AS WITH written AS \(UPDATE .* AND \(data = \$2::text\) IS NOT NULL RETURNING 1\) /.test(check)).length).toBeGreaterThanOrEqual(1);
  });

  it("should run the recorded writes again under pgbench, every transaction committed", async () => {
    expect(hasPgbench()).toBe(true);
    // Emptied values: only the replayed Set can write the recorded one back.
    await adminQuery(url!, `UPDATE "${recorded.schema}"."datastore_entries" SET data = '{}'`);
    const result = await replay(recorded, recorded.scripts.get("Set")!, 1);
    expect(result.failed).toBe(0);
    expect(result.rate).toBeGreaterThan(0);
    // A database on this machine: its processes' CPU is read per replayed call.
    if (["127.0.0.1", "localhost"].includes(new URL(url!).hostname)) expect(result.cpuPerCall).toBeGreaterThan(0);
    const rows = await adminQuery<{ data: string }>(url!, `SELECT data FROM "${recorded.schema}"."datastore_entries"`);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(JSON.parse(row.data)).toMatchObject({ value: save.value });
  }, 30_000);

  it("should replay whole calls together in writes as the adapter writes them, every call committed", async () => {
    await adminQuery(url!, `UPDATE "${recorded.schema}"."datastore_entries" SET data = '{}'`);
    const { scripts, callsPerRun } = inWrites(recorded.scripts.get("Set")!, 2);
    expect(callsPerRun).toBe(2);
    expect(scripts).toHaveLength(1);
    // Each call's COMMIT without waiting for the disk, one flush at the end of the write.
    expect(scripts[0]!.match(/SET LOCAL synchronous_commit = off \\; COMMIT/g)).toHaveLength(2);
    expect(scripts[0]!.endsWith(` \\; ${FLUSH};\n`)).toBe(true);
    const result = await replay(recorded, scripts, 1, undefined, callsPerRun);
    expect(result.failed).toBe(0);
    expect(result.rate).toBeGreaterThan(0);
    const rows = await adminQuery<{ data: string }>(url!, `SELECT data FROM "${recorded.schema}"."datastore_entries"`);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(JSON.parse(row.data)).toMatchObject({ value: save.value });
  }, 30_000);
});
