import { storageKind } from "./storage-under-test.js";

/*
 * How many cases a property suite tries, and from which seed. On memory, the
 * full count from a new seed each run (fast-check prints it on a failure).
 * On a database each case costs round trips, so fewer, from a fixed seed:
 * CI tries the same cases every run and its time stays put. Environment:
 * `countVariable` (the suite's own, e.g. PLAYFIELD_FUZZ_RUNS) sets the count
 * on any storage; PLAYFIELD_FUZZ_SEED sets the seed, to try other cases.
 */

/** The seed of database runs unless PLAYFIELD_FUZZ_SEED says otherwise. */
const DATABASE_SEED = 20_261_126;

export function propertyRuns(countVariable: string, counts: { memory: number; database: number }): { numRuns: number; seed?: number } {
  const numRuns = Number(process.env[countVariable] ?? (storageKind === "memory" ? counts.memory : counts.database));
  const given = process.env.PLAYFIELD_FUZZ_SEED;
  const seed = given !== undefined ? Number(given) : storageKind === "memory" ? undefined : DATABASE_SEED;
  return seed === undefined ? { numRuns } : { numRuns, seed };
}
