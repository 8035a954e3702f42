import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clientAddressOf, trustedProxySet } from "../../src/rpc/client-address.js";

/*
 * X-Forwarded-For is written by clients and proxies alike: whatever it
 * holds, clientAddressOf answers one address, and the entry a trusted proxy
 * appended wins over anything the client wrote to its left.
 */

const TRUSTED = ["10.0.0.2", "10.0.0.9", "fd00::1"];
const PROXIES = trustedProxySet(TRUSTED);

const proxy = fc.constantFrom(...TRUSTED, "::ffff:10.0.0.2", " 10.0.0.9 ");
/** A client's address, as a proxy writes it (an IPv4 one maybe as IPv4-mapped IPv6), and how it is spelled once read. */
const client = fc.oneof(fc.ipV4(), fc.ipV6(), fc.ipV4().map((ip) => `::ffff:${ip}`))
  .map((written) => ({ written, read: written.startsWith("::ffff:") && written.includes(".") ? written.slice(7) : written }))
  .filter(({ read }) => !PROXIES.has(read));
/** Anything a header may hold, commas and spaces included. */
const header = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.array(fc.oneof(fc.string(), fc.ipV4(), proxy), { maxLength: 6 }).map((hops) => hops.join(",")));
const spaces = fc.constantFrom("", " ", "  ", "\t");

describe("clientAddressOf (property)", () => {
  it("should answer the socket's address, whatever the header, when no proxy is trusted or the socket is not one", () => {
    fc.assert(fc.property(client, fc.option(header), ({ written, read }, forwarded) => {
      expect(clientAddressOf(written, forwarded, new Set())).toBe(written);
      expect(clientAddressOf(written, forwarded, PROXIES)).toBe(read);
    }), { numRuns: 500 });
  });

  it("should answer the entry the trusted proxies appended, whatever the client wrote to its left", () => {
    fc.assert(fc.property(proxy, fc.array(header, { maxLength: 4 }), client, fc.array(proxy, { maxLength: 3 }), spaces, (socket, forged, { written, read }, chain, space) => {
      const forwarded = [...forged, written, ...chain].map((hop) => `${space}${hop}${space}`).join(",");
      expect(clientAddressOf(socket, forwarded, PROXIES)).toBe(read);
    }), { numRuns: 500 });
  });

  it("should answer, for any header through a trusted proxy, one trimmed entry of it or the socket's address", () => {
    fc.assert(fc.property(proxy, fc.option(header), (socket, forwarded) => {
      const answer = clientAddressOf(socket, forwarded, PROXIES)!;
      expect(answer).not.toBe("");
      expect(answer).not.toContain(",");
      expect(answer).toBe(answer.trim());
      const entries = (forwarded ?? "").split(",").map((hop) => hop.trim());
      const spellings = (text: string) => [text, text.replace(/^::ffff:/i, "")];
      expect([...entries.flatMap(spellings), ...spellings(socket.trim())]).toContain(answer);
      // A key of bounded length and an address's shape: a client cannot make the throttle store anything it likes.
      expect(answer.length).toBeLessThanOrEqual(64);
      expect(answer).toMatch(/^[0-9a-f:.]+(%[0-9a-z_.-]+)?$/i);
    }), { numRuns: 1000 });
  });
});
