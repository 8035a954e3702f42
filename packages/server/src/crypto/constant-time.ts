/**
 * Whether two byte arrays are equal, in a time that depends on their length
 * only (not on where they differ), for comparing secrets and digests.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
