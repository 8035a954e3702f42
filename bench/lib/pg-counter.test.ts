import { describe, expect, it } from "vitest";
import { frontendReader, zeroCounts } from "./pg-counter.js";

/** One frontend message: a type byte, its length, its body. */
function message(type: string, ...parts: (string | Buffer)[]): Buffer {
  const body = Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(`${p}\0`) : p)));
  const head = Buffer.alloc(5);
  head.write(type, 0);
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

function startup(): Buffer {
  const body = Buffer.from("user\0postgres\0database\0test\0\0");
  const head = Buffer.alloc(8);
  head.writeInt32BE(body.length + 8, 0);
  head.writeInt32BE(196608, 4);
  return Buffer.concat([head, body]);
}

/** A serializable transaction as the adapter sends it: its first statement with BEGIN, one more through the extended protocol, COMMIT; then a ROLLBACK. */
const stream = Buffer.concat([
  startup(),
  message("Q", "BEGIN ISOLATION LEVEL SERIALIZABLE; SELECT * FROM users WHERE id = E'a;b'"),
  message("P", "", "UPDATE users SET x = $1", Buffer.from([0, 0])),
  message("B", "", "", Buffer.from([0, 0, 0, 0, 0, 0])),
  message("D", "P"),
  message("E", "", Buffer.from([0, 0, 0, 0])),
  message("S"),
  message("Q", "COMMIT"),
  message("Q", "BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY; SELECT 1"),
  message("Q", "ROLLBACK"),
]);
const expected = { transactions: 2, statements: 3, commits: 1, rollbacks: 1, roundTrips: 5 };

describe("frontendReader", () => {
  it("should count transactions, statements, commits, rollbacks and round trips of a whole stream", () => {
    const counts = zeroCounts();
    frontendReader(counts)(stream);
    expect(counts).toEqual(expected);
  });

  it("should count the same when the stream arrives cut at any byte", () => {
    for (let cut = 1; cut < stream.length; cut++) {
      const counts = zeroCounts();
      const read = frontendReader(counts);
      read(stream.subarray(0, cut));
      read(stream.subarray(cut));
      expect(counts, `cut at ${cut}`).toEqual(expected);
    }
  });

  it("should skip an SSL request before the startup packet", () => {
    const ssl = Buffer.alloc(8);
    ssl.writeInt32BE(8, 0);
    ssl.writeInt32BE(80877103, 4);
    const counts = zeroCounts();
    frontendReader(counts)(Buffer.concat([ssl, stream]));
    expect(counts).toEqual(expected);
  });
});
