import { tables, type Clock, type Storage } from "@playfield/core";
import { decodeBase64url, encodeBase64url } from "./base64url.js";
import { generateSigningKey, signingKeyFromSeed, type SigningKey } from "./signing-key.js";

/**
 * The signing keys kept in storage (`signing_keys`), newest first, so that
 * tokens signed before a restart still verify after it. On the first start
 * there are none: one is generated and stored. The read and the insert are
 * one serializable transaction, so servers starting together on one
 * database agree on the key.
 *
 * @example
 * const server = createServer({ storage, keys: await storedSigningKeys(storage, clock) });
 */
export async function storedSigningKeys(storage: Storage, clock: Clock): Promise<SigningKey[]> {
  const fresh = generateSigningKey();
  const rows = await storage.transact(async (tx) => {
    const stored = await tx.query(tables.signingKeys, "byCreated", { order: "desc" });
    if (stored.length > 0) return stored;
    const row = { kid: fresh.kid, seed: encodeBase64url(fresh.privateKey), createdAt: clock.now() };
    await tx.put(tables.signingKeys, row);
    return [row];
  });
  return rows.map((row) => {
    const seed = decodeBase64url(row.seed);
    if (!seed) throw new Error(`signing_keys: the seed of key ${row.kid} is not base64url`);
    return signingKeyFromSeed(seed, row.kid);
  });
}
