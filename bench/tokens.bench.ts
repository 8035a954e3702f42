/*
 * Token signing and verification per backend, the verified-token cache, and
 * scrypt at production cost. Figures are ratios against the node:crypto
 * verify (tokens) and the node:crypto hash (scrypt) of the same run.
 *
 *   node --conditions=@playfield/source --import tsx bench/tokens.bench.ts
 */
import { DEFAULT_LIFETIMES, TokenType, mintClaims } from "@playfield/core";
import { createScryptHasher } from "../packages/server/src/crypto/create-scrypt-hasher.js";
import { createTokenSigner } from "../packages/server/src/crypto/create-token-signer.js";
import { CryptoBackend } from "../packages/server/src/crypto/crypto-backend.js";
import { DEFAULT_SCRYPT_COST } from "../packages/server/src/crypto/scrypt-encoding.js";
import { generateSigningKey } from "../packages/server/src/crypto/signing-key.js";
import { measure, printTable, type Figure } from "./lib/measure.js";

const NOW = Date.UTC(2026, 0, 1);
const SECONDS_PER_CASE = Number(process.env.BENCH_SECONDS ?? 0.5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/** Runs `concurrency` calls at a time for `rounds` rounds and gives calls per second. */
async function measureConcurrent(name: string, op: () => Promise<unknown>, concurrency: number, rounds: number): Promise<Figure> {
  const start = performance.now();
  for (let r = 0; r < rounds; r++) await Promise.all(Array.from({ length: concurrency }, op));
  return { name, rate: (concurrency * rounds) / ((performance.now() - start) / 1000) };
}

async function tokens(): Promise<void> {
  const keys = [generateSigningKey("bench")];
  const claims = mintClaims({ sub: "u_1234567890", sid: "s_1234567890", typ: TokenType.Access, jti: "j_1234567890" }, NOW, DEFAULT_LIFETIMES.access);
  const cases: [string, () => Promise<unknown>][] = [];
  for (const backend of Object.values(CryptoBackend)) {
    const uncached = createTokenSigner({ keys, backend, cacheSize: 0 });
    const cached = createTokenSigner({ keys, backend });
    const token = await uncached.sign(claims);
    cases.push([`${backend} sign`, () => uncached.sign(claims)]);
    cases.push([`${backend} verify`, () => uncached.verify(token, NOW)]);
    cases.push([`${backend} verify, cache hit`, () => cached.verify(token, NOW)]);
  }
  // Rounds interleave the cases and the median is kept, so that a burst of
  // load from elsewhere on the machine skews one round, not one case.
  const rounds: Figure[][] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const round: Figure[] = [];
    for (const [name, op] of cases) round.push(await measure(name, op, SECONDS_PER_CASE));
    rounds.push(round);
  }
  const figures = cases.map(([name], i) => ({ name, rate: median(rounds.map((round) => round[i]!.rate)) }));
  printTable(`Ed25519 JWT (serial calls, one token of ~300 characters; median of ${ROUNDS} rounds)`, figures, figures.find((f) => f.name === "node verify")!);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function scrypt(): Promise<void> {
  const { N, r, p } = DEFAULT_SCRYPT_COST;
  const node = createScryptHasher({ backend: "node" });
  const noble = createScryptHasher({ backend: "noble" });
  const baseline = await measure("node hash", () => node.hash("correct horse battery"), 3);
  const figures = [
    baseline,
    await measureConcurrent("node hash, 4 at once (thread pool)", () => node.hash("correct horse battery"), 4, 8),
    await measure("noble hash", () => noble.hash("correct horse battery"), 3),
  ];
  printTable(`scrypt N=2^${Math.log2(N)}, r=${r}, p=${p}`, figures, baseline);
}

console.log(`Node ${process.version}, ${(await import("node:os")).cpus().length} CPUs`);
await tokens();
await scrypt();
