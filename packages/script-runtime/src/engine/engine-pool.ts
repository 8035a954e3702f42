import { createEngineCell } from "./engine-cell.js";
import type { EngineCell } from "./engine-cell.js";
import { probeCounterOffset } from "./counter-probe.js";
import { probeBinaryState, probeValueTags } from "./answer-layout.js";
import type { ValueTags } from "./answer-layout.js";

/**
 * EnginePool hands out room for scripts in shared engine cells: a new cell
 * is made when none has room for another script's memory limit.
 *
 * Why cells and not one module per script: a QuickJS module instance costs
 * 7–20 ms to create and ~250–330 KB resident, and V8 reserves address space
 * per WebAssembly memory, which runs out near a thousand of them; a runtime
 * inside a shared module costs ~0.25 ms and ~75 KB. A cell's fixed memory
 * still bounds what its scripts take from the host.
 */
export interface EnginePool {
  /** Byte offset of QuickJS's interrupt counter in its JSContext (probed once). */
  readonly counterOffset: number;
  /** How this build tags the answers that are not a state (probed once). */
  readonly valueTags: ValueTags;
  /** A cell with room for `memoryLimit` bytes, reserved for the caller. */
  acquire(memoryLimit: number): Promise<EngineCell>;
  release(cell: EngineCell, memoryLimit: number): void;
  /** How many cells exist. */
  cells(): number;
}

/** Options of {@link createEnginePool}. */
export interface EnginePoolOptions {
  /** Sum of script memory limits one cell holds. */
  cellBytes: number;
}

/** Creates a pool; the first cell is made at once so the build's layout can be probed. */
export async function createEnginePool(options: EnginePoolOptions): Promise<EnginePool> {
  const cells: EngineCell[] = [await createEngineCell(options.cellBytes)];
  const counterOffset = probeCounterOffset(cells[0]!);
  const valueTags = probeValueTags(cells[0]!);
  probeBinaryState(cells[0]!);
  return {
    counterOffset,
    valueTags,
    async acquire(memoryLimit) {
      let cell = cells.find((c) => !c.broken && c.free() >= memoryLimit);
      if (!cell) {
        cell = await createEngineCell(Math.max(options.cellBytes, memoryLimit));
        cells.push(cell);
      }
      cell.reserve(memoryLimit);
      return cell;
    },
    release(cell, memoryLimit) {
      cell.release(memoryLimit);
    },
    cells: () => cells.length,
  };
}
