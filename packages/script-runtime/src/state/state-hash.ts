import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { sha256Hex } from "./sha256-hex.js";

/**
 * The `state_hash` of a script: the first 8 bytes, in hex, of SHA-256 over
 * the canonical JSON of its state (keys sorted, no spaces).
 *
 * @example
 * stateHash('{"count":1}') // 16 hex digits
 */
export function stateHash(canonicalJson: string): string {
  return sha256Hex(canonicalJson).slice(0, 16);
}

/** The chain before the first tick. */
export const GENESIS_CHAIN = "0".repeat(64);

/**
 * The next link of the hash chain: SHA-256 (hex) of the previous chain, a
 * `|`, and every script's state hash in load order joined by `,`.
 */
export function nextChain(previous: string, stateHashes: readonly string[]): string {
  return sha256Hex(`${previous}|${stateHashes.join(",")}`);
}

/** Four 32-bit words that seed a script's `Math.random`, from the runtime seed, its name and its load tick. */
export function scriptSeed(seed: number, name: string, loadTick: number): [number, number, number, number] {
  const bytes = sha256(utf8ToBytes(`${seed}\u0000${name}\u0000${loadTick}`));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [view.getInt32(0), view.getInt32(4), view.getInt32(8), view.getInt32(12)];
}
