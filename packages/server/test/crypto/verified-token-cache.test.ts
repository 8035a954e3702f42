import { TokenType, type TokenClaims } from "@playfield/core";
import { describe, expect, it } from "vitest";
import { createVerifiedTokenCache } from "../../src/crypto/verified-token-cache.js";

const claims = (sub: string): TokenClaims => ({ sub, sid: "s", typ: TokenType.Access, iat: 0, exp: 1 });

describe("createVerifiedTokenCache", () => {
  it("should return what was set", () => {
    const cache = createVerifiedTokenCache(10);
    cache.set("a", claims("1"));
    expect(cache.get("a")).toEqual(claims("1"));
    expect(cache.get("b")).toBeUndefined();
  });

  it("should hold at most its capacity, evicting the least recently used", () => {
    const cache = createVerifiedTokenCache(2);
    cache.set("a", claims("1"));
    cache.set("b", claims("2"));
    cache.get("a");
    cache.set("c", claims("3"));
    expect(cache.size).toBe(2);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toEqual(claims("1"));
    expect(cache.get("c")).toEqual(claims("3"));
  });

  it("should hold nothing at capacity 0", () => {
    const cache = createVerifiedTokenCache(0);
    cache.set("a", claims("1"));
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("should forget a deleted token", () => {
    const cache = createVerifiedTokenCache(2);
    cache.set("a", claims("1"));
    cache.delete("a");
    expect(cache.get("a")).toBeUndefined();
  });

  it("should tell apart tokens that end alike", () => {
    const cache = createVerifiedTokenCache(10);
    const tail = "0123456789abcdefghijklmnop";
    cache.set(`first.${tail}`, claims("1"));
    expect(cache.get(`other.${tail}`)).toBeUndefined();
    cache.delete(`other.${tail}`);
    expect(cache.get(`first.${tail}`)).toEqual(claims("1"));
    cache.set(`second.${tail}`, claims("2"));
    expect(cache.get(`second.${tail}`)).toEqual(claims("2"));
    expect(cache.get(`first.${tail}`)).toBeUndefined();
  });

  it("should refuse a negative or fractional capacity", () => {
    expect(() => createVerifiedTokenCache(-1)).toThrow(RangeError);
    expect(() => createVerifiedTokenCache(1.5)).toThrow(RangeError);
  });
});
