/*
 * Versions of datastore entries (spec rules 5 and 6): every write raises an
 * entry's version, a key never written is at version 0, and a Set with
 * `ifVersion` writes only when the entry is at the expected version. A
 * deleted key reads as absent (version 0) but keeps its last version as a
 * floor, so the versions of one key are never reused: a stale `ifVersion`
 * from before a Delete cannot match a later entry by accident.
 */

/** The version a write gives an entry: one above its current version, or above the last version it had before a Delete. */
export function nextVersion(current: number | undefined, deletedFloor: number): number {
  return (current ?? deletedFloor) + 1;
}

/** Whether a Set writes: always without `ifVersion`; with it, only when `expected` is the entry's current version (0 = absent). */
export function setMayWrite(current: number | undefined, ifVersion: boolean, expected: number): boolean {
  return !ifVersion || (current ?? 0) === expected;
}
