import { createEngineCell } from "./engine-cell.js";
import type { EngineCell } from "./engine-cell.js";
import { probeCounterOffset } from "./counter-probe.js";
import { probeBinaryState, probeValueTags } from "./answer-layout.js";
import type { ValueTags } from "./answer-layout.js";

/**
 * EnginePool hands out room for scripts in engine cells, each cell holding
 * one tenant's scripts: a new cell is made when none of the tenant's has
 * room for another script's memory limit, and a player's cell is dropped
 * when its last script leaves.
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
  /**
   * A cell of `tenant`'s with room for `memoryLimit` bytes, reserved for the
   * caller. A new cell holds `cellBytes` of limits, or just this one when
   * `alone` (a script that must have a byte cap of its own).
   */
  acquire(memoryLimit: number, tenant: string, alone?: boolean): Promise<EngineCell>;
  release(cell: EngineCell, memoryLimit: number): void;
  /** How many cells exist (for `tenant`'s scripts, when given). */
  cells(tenant?: string): number;
}

/** The tenant of the creator's scripts; each player is a tenant of their own. */
export const CREATOR_TENANT = "creator";

/** Options of {@link createEnginePool}. */
export interface EnginePoolOptions {
  /** Sum of script memory limits one cell holds. */
  cellBytes: number;
}

/** Creates a pool; the first cell is made at once so the build's layout can be probed. */
export async function createEnginePool(options: EnginePoolOptions): Promise<EnginePool> {
  const cells: EngineCell[] = [await createEngineCell(options.cellBytes, CREATOR_TENANT)];
  const counterOffset = probeCounterOffset(cells[0]!);
  const valueTags = probeValueTags(cells[0]!);
  probeBinaryState(cells[0]!);
  return {
    counterOffset,
    valueTags,
    async acquire(memoryLimit, tenant, alone = false) {
      let cell = cells.find((c) => c.tenant === tenant && !c.broken && c.free() >= memoryLimit);
      if (!cell) {
        cell = await createEngineCell(alone ? memoryLimit : Math.max(options.cellBytes, memoryLimit), tenant, alone);
        cells.push(cell);
      }
      cell.reserve(memoryLimit);
      return cell;
    },
    release(cell, memoryLimit) {
      cell.release(memoryLimit);
      // A player's empty cell is dropped (its memory goes back to the host);
      // the creator's stay, since creator scripts come and go on reloads.
      if (cell.tenant !== CREATOR_TENANT && cell.reserved() === 0 && cells.includes(cell)) cells.splice(cells.indexOf(cell), 1);
    },
    cells: (tenant) => (tenant === undefined ? cells.length : cells.filter((c) => c.tenant === tenant).length),
  };
}
