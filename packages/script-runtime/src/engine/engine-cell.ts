import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from "quickjs-emscripten";
import type { QuickJSWASMModule } from "quickjs-emscripten";

const PAGE = 65_536;
/**
 * What the QuickJS build itself needs below the scripts' heaps (its stack
 * and data): measured, a 16 MiB memory leaves ~11 MiB of heap to a script.
 */
const BASE_BYTES = 6 * 1024 * 1024;
/** The build's declared minimum memory (16 MiB); a smaller one does not link. */
const MIN_PAGES = 256;
/** Spare room per reserved byte in a shared cell, so allocator fragmentation never makes a neighbour fail. */
const SLACK = 1.25;

/**
 * EngineCell is one QuickJS WebAssembly module with a fixed-size memory that
 * hosts several scripts of one tenant (the creator, or one player), each in
 * its own QuickJS runtime with its own memory limit. The memory can never
 * grow, so the cell bounds what its scripts can take from the host, in
 * bytes; a script that hoards memory can starve only its own tenant's
 * scripts (see docs/scripts.md, Memory).
 */
export interface EngineCell {
  readonly module: QuickJSWASMModule;
  /** Whose scripts the cell holds: "creator" or a player. */
  readonly tenant: string;
  /** Int32 view of the whole memory (valid for the cell's life: the memory never grows). */
  readonly heap32: Int32Array;
  /** Bytes of script memory limits this cell can still take. */
  free(): number;
  /** Bytes of script memory limits reserved in this cell. */
  reserved(): number;
  reserve(bytes: number): void;
  release(bytes: number): void;
  /** Set when the module trapped: nothing in it may run again. */
  broken: boolean;
}

/**
 * Creates a cell for `tenant`'s scripts, whose memory limits may add up to
 * `capacityBytes`. A cell for one script (`alone`) has no slack: its memory
 * is the script's byte cap.
 */
export async function createEngineCell(capacityBytes: number, tenant: string, alone = false): Promise<EngineCell> {
  const pages = Math.max(MIN_PAGES, Math.ceil((BASE_BYTES + capacityBytes * (alone ? 1 : SLACK)) / PAGE));
  if (pages > 32_768) throw new RangeError(`an engine cell of ${capacityBytes} bytes exceeds the 2 GiB a QuickJS module can address`);
  const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
  const module = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: memory }));
  let reserved = 0;
  return {
    module,
    tenant,
    heap32: new Int32Array(memory.buffer),
    free: () => capacityBytes - reserved,
    reserved: () => reserved,
    reserve: (bytes) => { reserved += bytes; },
    release: (bytes) => { reserved -= bytes; },
    broken: false,
  };
}
