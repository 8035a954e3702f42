import { describe, expect, it } from "vitest";
import { PreparedStatements } from "./prepared-statements.js";
import { simpleTexts, type Sql } from "./sql-statement.js";

/** The statements as texts (sql-statement.ts), each name as `p<n>`, its text's hash left out (the name's hash is checked apart). */
const named = (statements: Sql[]) => statements.flatMap(simpleTexts).map((text) => text.replace(/\bpf_[0-9a-z]+_(\d+)\b/g, "p$1"));

const GET = "SELECT data FROM t WHERE id = $1::bytea";
const PUT = "INSERT INTO t (id, data) VALUES ($1::bytea, $2::text)";

describe("prepared statements of a connection", () => {
  it("should prepare a statement the first time the connection sends it, and execute it by name after", () => {
    const statements = new PreparedStatements();
    const first: Sql[] = [];
    const fresh: string[] = [];
    statements.write(first, GET, [new Uint8Array([1, 255])], fresh);
    expect(named(first)).toEqual([`PREPARE p0 AS ${GET}`, "EXECUTE p0('\\x01ff')"]);
    expect(fresh).toEqual([GET]);
    const again: Sql[] = [];
    statements.write(again, GET, [new Uint8Array([2])], []);
    statements.write(again, PUT, [new Uint8Array([2]), "it's"], []);
    expect(named(again)).toEqual(["EXECUTE p0('\\x02')", `PREPARE p1 AS ${PUT}`, "EXECUTE p1('\\x02', $_$it's$_$)"]);
    // Bound as they are: bytes (in binary), text unquoted, numbers as their text.
    expect(again.map((sql) => typeof sql === "string" ? sql : sql.values)).toEqual([[new Uint8Array([2])], [new Uint8Array([2]), "it's"]]);
  });

  it("should prepare a statement without parameters too (written as its text in a simple query), and send one of many parameters unnamed", () => {
    const statements = new PreparedStatements();
    const texts: Sql[] = [];
    const ids = Array.from({ length: 40 }, (_, i) => i);
    statements.write(texts, "COMMIT", [], []);
    statements.write(texts, "COMMIT", [], []);
    statements.write(texts, `SELECT data FROM t WHERE n IN (${ids.map((i) => `$${i + 1}`).join(", ")})`, ids, []);
    expect(texts.map((sql) => typeof sql === "string" ? sql : { unnamed: sql.name === "", prepare: sql.prepare, values: sql.values })).toEqual([
      { unnamed: false, prepare: true, values: [] }, { unnamed: false, prepare: false, values: [] }, { unnamed: true, prepare: true, values: ids.map(String) },
    ]);
    // SQL's PREPARE takes no COMMIT: where a message is one simple query, the statement goes as its text, and the
    // unnamed one with its values written in.
    expect(named(texts)).toEqual(["COMMIT", "COMMIT", `SELECT data FROM t WHERE n IN (${ids.map((i) => `$_$${i}$_$`).join(", ")})`]);
  });

  it("should prepare again under a new name what a failed message prepared, since whether it ran is unknown", () => {
    const statements = new PreparedStatements();
    const fresh: string[] = [];
    statements.write([], GET, [1], fresh);
    statements.forget(fresh);
    const texts: Sql[] = [];
    statements.write(texts, GET, [1], []);
    expect(named(texts)).toEqual([`PREPARE p1 AS ${GET}`, "EXECUTE p1($_$1$_$)"]);
  });

  it("should deallocate every statement once it gave out its most names, and never give a name twice", () => {
    const statements = new PreparedStatements(2);
    const texts: Sql[] = [];
    for (const n of [1, 2, 3]) statements.write(texts, `SELECT ${n} + $1::int`, [0], []);
    statements.write(texts, "SELECT 1 + $1::int", [0], []);
    expect(named(texts).filter((text) => !text.startsWith("EXECUTE"))).toEqual([
      "PREPARE p0 AS SELECT 1 + $1::int", "PREPARE p1 AS SELECT 2 + $1::int",
      "DEALLOCATE ALL", "PREPARE p2 AS SELECT 3 + $1::int", "PREPARE p3 AS SELECT 1 + $1::int",
    ]);
  });

  it("should deallocate before a statement with parameters only, never before a BEGIN (DEALLOCATE's snapshot would fail its isolation level)", () => {
    const statements = new PreparedStatements(1);
    const sent: Sql[] = [];
    for (const text of ["BEGIN ISOLATION LEVEL SERIALIZABLE", "SELECT $1::int", "COMMIT", "BEGIN ISOLATION LEVEL SERIALIZABLE", "SELECT 2 + $1::int"]) {
      statements.write(sent, text, text.includes("$1") ? [0] : [], []);
    }
    const kinds = sent.map((sql) => typeof sql === "string" ? sql : `${sql.prepare ? "prepare " : ""}${sql.text.split(" ")[0]}`);
    expect(kinds).toEqual(["prepare BEGIN", "DEALLOCATE ALL", "prepare SELECT", "prepare COMMIT", "prepare BEGIN", "DEALLOCATE ALL", "prepare SELECT"]);
  });

  it("should name a statement by its text, so that another connection's statement of that name is the same one", () => {
    const nameOf = (statements: PreparedStatements, text: string) => {
      const texts: Sql[] = [];
      statements.write(texts, text, [0], []);
      return /^PREPARE (pf_[0-9a-z]+)_\d+ AS /.exec(simpleTexts(texts[0]!)[0]!)![1];
    };
    const one = new PreparedStatements();
    const other = new PreparedStatements();
    expect(nameOf(one, GET)).toBe(nameOf(other, GET));
    expect(nameOf(one, PUT)).not.toBe(nameOf(other, GET.replace("FROM t", "FROM u")));
  });

  it("should prepare everything anew, after DEALLOCATE ALL, once the database lost a statement", () => {
    const statements = new PreparedStatements();
    statements.write([], GET, [1], []);
    statements.lost();
    const texts: Sql[] = [];
    statements.write(texts, GET, [1], []);
    expect(named(texts)).toEqual(["DEALLOCATE ALL", `PREPARE p1 AS ${GET}`, "EXECUTE p1($_$1$_$)"]);
  });
});
