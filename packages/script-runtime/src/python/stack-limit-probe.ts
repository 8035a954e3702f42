import type { EngineSnapshot } from "./micropython-instance.js";

/** The C stack MicroPython may use, as the official build sets it (bytes). */
const BUILD_STACK_LIMIT = 32 * 1024;

/**
 * Finds where a started interpreter keeps its C stack limit (MicroPython's
 * `mp_state_thread_t`: `stack_top`, `stack_limit`, then the pystack's start,
 * end and current pointers), so that the prelude can lower the limit while
 * it writes `self.state`: a cyclic state then stops `repr` after a few
 * hundred levels instead of using most of a tick's fuel. The pattern must be
 * found exactly once, or the engine does not start.
 */
export function probeStackLimit(snapshot: EngineSnapshot, pystackBytes: number): { address: number; limit: number } {
  const view = new DataView(snapshot.memory.buffer, snapshot.memory.byteOffset, snapshot.memory.byteLength);
  const found: number[] = [];
  for (let at = 0; at + 20 <= view.byteLength; at += 4) {
    const top = view.getUint32(at, true);
    const limit = view.getUint32(at + 4, true);
    const start = view.getUint32(at + 8, true);
    const end = view.getUint32(at + 12, true);
    const cur = view.getUint32(at + 16, true);
    if (limit === BUILD_STACK_LIMIT && top > limit && top <= snapshot.stackPointer + 4096 && end - start === pystackBytes * 4 && cur >= start && cur <= end) found.push(at + 4);
  }
  if (found.length !== 1) throw new Error(`the Python engine's C stack limit: expected one mp_state_thread_t, found ${found.length}; this MicroPython build is not supported`);
  return { address: found[0]!, limit: BUILD_STACK_LIMIT };
}
