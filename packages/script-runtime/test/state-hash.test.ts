import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../src/state/sha256-hex.js";
import { nextChain, stateHash } from "../src/state/state-hash.js";

const reference = (text: string) => bytesToHex(sha256(utf8ToBytes(text)));

describe("sha256Hex", () => {
  it("should give the published digests of the standard test strings", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  });

  it("should equal SHA-256 over the UTF-8 bytes for any text, lone surrogates included, at every padding boundary", () => {
    const texts = fc.oneof(
      fc.string({ unit: "binary", maxLength: 300 }),
      fc.string({ unit: fc.constantFrom("a", "é", "€", "😀", "\ud800", "\udc00"), maxLength: 200 }),
      fc.integer({ min: 0, max: 200 }).map((n) => "x".repeat(n)),
    );
    fc.assert(fc.property(texts, (text) => sha256Hex(text) === reference(text)), { numRuns: 300 });
  });

  it("should hash a text longer than its buffer, then a short one, correctly", () => {
    const long = "€".repeat(100_000);
    expect(sha256Hex(long)).toBe(reference(long));
    expect(sha256Hex("abc")).toBe(reference("abc"));
  });
});

describe("stateHash", () => {
  it("should be the first 8 bytes of SHA-256 of the canonical JSON, in hex", () => {
    expect(stateHash('{"n":1}')).toBe(reference('{"n":1}').slice(0, 16));
  });
});

describe("nextChain", () => {
  it("should be SHA-256 of the previous link, a bar and the state hashes joined by commas", () => {
    const previous = "0".repeat(64);
    expect(nextChain(previous, ["aa", "bb"])).toBe(reference(`${previous}|aa,bb`));
  });
});
