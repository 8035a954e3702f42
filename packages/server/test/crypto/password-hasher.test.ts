import { scryptSync } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeBase64url } from "../../src/crypto/base64url.js";
import { CryptoBackend } from "../../src/crypto/crypto-backend.js";
import { createScryptHasher } from "../../src/crypto/create-scrypt-hasher.js";
import { nobleScrypt } from "../../src/crypto/noble-scrypt.js";
import { nodeScrypt } from "../../src/crypto/node-scrypt.js";
import { createScryptHasherWith, needsRehash } from "../../src/crypto/password-hasher.js";
import { DEFAULT_SCRYPT_COST, FAST_TEST_COST, decodeScryptHash, encodeScryptHash } from "../../src/crypto/scrypt-encoding.js";

const ENCODED = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;
/** Even cheaper than FAST_TEST_COST, for property runs. */
const TINY_COST = { N: 16, r: 1, p: 1 };

for (const backend of Object.values(CryptoBackend)) {
  describe(`createScryptHasher (${backend})`, () => {
    const hasher = createScryptHasher({ backend, cost: FAST_TEST_COST });

    it("should accept the password it hashed and refuse another", async () => {
      const stored = await hasher.hash("correct horse battery");
      expect(await hasher.verify("correct horse battery", stored)).toBe(true);
      expect(await hasher.verify("correct horse battery!", stored)).toBe(false);
      expect(await hasher.verify("", stored)).toBe(false);
    });

    it("should write scrypt$N$r$p$salt$hash with its cost, a 16-byte salt and a 32-byte hash", async () => {
      const match = ENCODED.exec(await hasher.hash("pw"));
      expect(match).not.toBeNull();
      const [, N, r, p, salt, key] = match!;
      expect({ N: Number(N), r: Number(r), p: Number(p) }).toEqual(FAST_TEST_COST);
      expect(decodeBase64url(salt!)).toHaveLength(16);
      expect(decodeBase64url(key!)).toHaveLength(32);
    });

    it("should store scrypt of the UTF-8 password under the stored salt, as OpenSSL computes it", async () => {
      const stored = decodeScryptHash(await hasher.hash("pässwörd"))!;
      const expected = scryptSync(Buffer.from("pässwörd", "utf8"), stored.salt, 32, FAST_TEST_COST);
      expect(Buffer.from(stored.key)).toEqual(expected);
    });

    it("should salt each hash at random", async () => {
      expect(await hasher.hash("same")).not.toBe(await hasher.hash("same"));
    });

    it("should verify hashes made at another cost (the stored form names its own)", async () => {
      const older = createScryptHasher({ backend, cost: { N: 2 ** 8, r: 4, p: 2 } });
      expect(await hasher.verify("pw", await older.hash("pw"))).toBe(true);
    });

    it("should treat canonically equivalent passwords alike (NFC)", async () => {
      expect(await hasher.verify("e\u0301", await hasher.hash("\u00e9"))).toBe(true);
    });

    it("should answer false, not throw, for a stored value it did not write", async () => {
      const good = await hasher.hash("pw");
      const bad = ["", "pw", "scrypt$1024$8$1$$", good.replace("scrypt$", "bcrypt$"), good.replace("$1024$", "$1000$"),
        good.replace("$1024$", "$2147483648$"), good.replace("$8$", "$0$"), good + "$", good.replace(/\$[^$]+$/, "$!!!")];
      for (const encoded of bad) expect(await hasher.verify("pw", encoded)).toBe(false);
    });

    it("should accept any password it hashed and refuse any other", async () => {
      const tiny = createScryptHasher({ backend, cost: TINY_COST });
      await fc.assert(fc.asyncProperty(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), async (password, other) => {
        fc.pre(password.normalize("NFC") !== other.normalize("NFC"));
        const stored = await tiny.hash(password);
        expect(await tiny.verify(password, stored)).toBe(true);
        expect(await tiny.verify(other, stored)).toBe(false);
      }), { numRuns: 50 });
    });
  });
}

describe("createScryptHasher across backends", () => {
  const node = createScryptHasher({ backend: "node", cost: FAST_TEST_COST });
  const noble = createScryptHasher({ backend: "noble", cost: FAST_TEST_COST });

  it("should verify with one backend what the other hashed", async () => {
    expect(await noble.verify("pw", await node.hash("pw"))).toBe(true);
    expect(await node.verify("pw", await noble.hash("pw"))).toBe(true);
    expect(await node.verify("pW", await noble.hash("pw"))).toBe(false);
  });

  it("should default to OWASP's cost, N = 2^17, r = 8, p = 1", async () => {
    const stored = decodeScryptHash(await createScryptHasher().hash("pw"))!;
    expect(stored.cost).toEqual({ N: 131072, r: 8, p: 1 });
  }, 20_000);

  it("should refuse a cost scrypt cannot run or that asks too much", () => {
    for (const cost of [{ N: 1000, r: 8, p: 1 }, { N: 1, r: 8, p: 1 }, { N: 1024, r: 0, p: 1 }, { N: 2 ** 21, r: 8, p: 1 }, { N: 2 ** 20, r: 8, p: 1 }]) {
      expect(() => createScryptHasher({ cost })).toThrow(RangeError);
    }
  });
});

describe("scrypt backends", () => {
  it("should both compute RFC 7914's test vector (N=1024, r=8, p=16)", async () => {
    const expected = "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640";
    const utf8 = (s: string) => new TextEncoder().encode(s);
    for (const kdf of [nodeScrypt, nobleScrypt]) {
      const key = await kdf.derive(utf8("password"), utf8("NaCl"), { N: 1024, r: 8, p: 16 }, 64);
      expect(Buffer.from(key).toString("hex")).toBe(expected);
    }
  });

  it("should both compare bytes for equality", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }), (a, b) => {
      for (const kdf of [nodeScrypt, nobleScrypt]) {
        expect(kdf.equal(a, Uint8Array.from(a))).toBe(true);
        expect(kdf.equal(a, b)).toBe(Buffer.from(a).equals(Buffer.from(b)));
      }
    }));
  });
});

describe("createScryptHasherWith", () => {
  it("should refuse a stored hash whose key differs in its last byte", async () => {
    const hasher = createScryptHasherWith(nobleScrypt, { cost: TINY_COST });
    const stored = decodeScryptHash(await hasher.hash("pw"))!;
    const key = Uint8Array.from(stored.key);
    key[key.length - 1]! ^= 1;
    expect(await hasher.verify("pw", encodeScryptHash({ ...stored, key }))).toBe(false);
  });
});

describe("needsRehash", () => {
  it("should say whether a stored hash was made at another cost than the current one", async () => {
    const stored = await createScryptHasher({ cost: FAST_TEST_COST }).hash("pw");
    expect(needsRehash(stored, FAST_TEST_COST)).toBe(false);
    expect(needsRehash(stored, DEFAULT_SCRYPT_COST)).toBe(true);
    expect(needsRehash(stored)).toBe(true);
  });

  it("should say yes for a value that is not a stored hash", () => {
    expect(needsRehash("plain")).toBe(true);
  });
});

describe("decodeScryptHash", () => {
  it("should read back what encodeScryptHash wrote", () => {
    fc.assert(fc.property(
      fc.record({ N: fc.integer({ min: 1, max: 16 }).map((e) => 2 ** e), r: fc.integer({ min: 1, max: 32 }), p: fc.integer({ min: 1, max: 16 }) }),
      fc.uint8Array({ minLength: 8, maxLength: 64 }), fc.uint8Array({ minLength: 16, maxLength: 64 }),
      (cost, salt, key) => {
        expect(decodeScryptHash(encodeScryptHash({ cost, salt, key }))).toEqual({ cost, salt, key });
      },
    ));
  });
});
