import { describe, expect, it } from "vitest";
import { JSON_DEPTH_MAX } from "../../src/json/json-depth.js";
import { DatastoreSetRequest, DatastoreUpdateRequest } from "../../src/schemas/datastore.js";
import { PublishVersionRequest } from "../../src/schemas/catalog.js";

/*
 * DatastoreService/Update with a patch nested ~5,000 levels answered 500,
 * and Set accepted a value nested 30,000 deep after which every Update of
 * the key answered 500 (JSON.stringify overflowed the stack). Every JSON
 * text field now refuses more than JSON_DEPTH_MAX levels, by field, before
 * anything parses or walks it.
 */
const nestedArray = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const nestedObject = (depth: number) => '{"a":'.repeat(depth - 1) + "{}" + "}".repeat(depth - 1);

function firstIssue(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  expect(result.success).toBe(false);
  return result.error!.issues[0]!;
}

describe("JSON text fields nested too deep", () => {
  it("should refuse the reported Update patch (5,000 levels) naming the field and the limit", () => {
    const issue = firstIssue(DatastoreUpdateRequest.safeParse({ key: "k", patch: nestedObject(5_000) }));
    expect(issue.path).toEqual(["patch"]);
    expect(issue.message).toBe(`at most ${JSON_DEPTH_MAX} levels of nesting`);
  });

  it("should refuse the reported Set value (30,000 levels), so such a value is never stored", () => {
    const issue = firstIssue(DatastoreSetRequest.safeParse({ key: "k", value: nestedArray(30_000) }));
    expect(issue.path).toEqual(["value"]);
    expect(issue.message).toBe(`at most ${JSON_DEPTH_MAX} levels of nesting`);
  });

  it("should refuse a budget report nested too deep", () => {
    const issue = firstIssue(PublishVersionRequest.safeParse({ experienceId: "e1", budgetReportJson: nestedArray(JSON_DEPTH_MAX + 1) }));
    expect(issue.path).toEqual(["budgetReportJson"]);
    expect(issue.message).toBe(`at most ${JSON_DEPTH_MAX} levels of nesting`);
  });

  it("should accept exactly JSON_DEPTH_MAX levels", () => {
    expect(DatastoreSetRequest.safeParse({ key: "k", value: nestedArray(JSON_DEPTH_MAX) }).success).toBe(true);
    expect(DatastoreUpdateRequest.safeParse({ key: "k", patch: nestedObject(JSON_DEPTH_MAX) }).success).toBe(true);
    expect(DatastoreUpdateRequest.safeParse({ key: "k", patch: nestedObject(JSON_DEPTH_MAX + 1) }).success).toBe(false);
  });

  it("should check the size before the nesting, and the nesting before the parse", () => {
    const huge = nestedArray(3 * 1024 * 1024);
    expect(firstIssue(DatastoreSetRequest.safeParse({ key: "k", value: huge })).message).toBe("at most 4 MB");
    const deepAndBroken = nestedArray(100).slice(0, -1);
    expect(firstIssue(DatastoreSetRequest.safeParse({ key: "k", value: deepAndBroken })).message).toBe(`at most ${JSON_DEPTH_MAX} levels of nesting`);
  });
});
