import { EngineTrap } from "./engine-traps.js";

/** What an instance's imports reach on the host side. */
export interface ImportHost {
  memory(): WebAssembly.Memory;
  /** The simulated clock: ms since the epoch. */
  nowMs(): number;
  /** A seeded 32-bit generator. */
  randomU32(): number;
  /** Standard output and error, already capped by the caller. */
  write(fd: number, bytes: Uint8Array): void;
  /** The memory limit in bytes: heap growth past it is a trap. */
  memoryLimitBytes: number;
  fuelExhausted(): never;
  /** The engine's calls nested past its depth limit (see `MAX_CALL_DEPTH`). */
  depthExceeded(): never;
  /**
   * A call of the one JavaScript object a Python script may call, the
   * game's API (`call2` of the JavaScript bridge with the reference
   * {@link HOST_REF}); absent, or any other bridge call, is a trap.
   */
  hostCall2?(viaCall: number, a0: number, a1: number, out: number): void;
}

/** The bridge reference of the host's API function, registered as the module `_playfield_host`. */
export const HOST_REF = 2;

const ENOENT = 44;
const EBADF = 8;
const ESPIPE = 70;

/** The JavaScript-bridge imports (`import js`, `jsffi`): any call means Python tried to reach the host. */
const BRIDGE = [
  "proxy_convert_mp_to_js_then_js_to_mp_obj_jsside", "proxy_convert_mp_to_js_then_js_to_js_then_js_to_mp_obj_jsside",
  "js_get_proxy_js_ref_info", "call0_kwarg", "calln_kwarg", "call1", "call2", "calln", "call0", "lookup_attr",
  "store_attr", "js_subscr_load", "js_subscr_store", "has_attr", "js_get_iter", "proxy_js_free_obj",
  "js_reflect_construct", "js_iter_next", "js_get_error_info", "js_then_resolve",
  "create_promise", "js_then_continue", "js_then_reject",
] as const;

/** File-system calls: every one answers "no such file". */
const SYSCALLS = [
  "__syscall_chdir", "__syscall_getcwd", "__syscall_mkdirat", "__syscall_openat", "__syscall_poll",
  "__syscall_getdents64", "__syscall_renameat", "__syscall_rmdir", "__syscall_fstat64", "__syscall_stat64",
  "__syscall_newfstatat", "__syscall_lstat64", "__syscall_statfs64", "__syscall_unlinkat",
] as const;

/**
 * The imports of the rewritten MicroPython module, every one answered by
 * the host: the simulated clock and the seeded generator, captured output,
 * a file system where nothing exists, no JavaScript bridge, heap growth up
 * to the limit (setjmp/longjmp is inside the module: see
 * `rewriteMicroPython`). {@link checkImports} refuses a module that asks
 * for anything else.
 */
export function engineImports(host: ImportHost): WebAssembly.Imports {
  const env: Record<string, (...args: never[]) => unknown> = {};
  env.fuel_exhausted = () => host.fuelExhausted();
  env.depth_exceeded = () => host.depthExceeded();
  env.mp_js_random_u32 = () => host.randomU32() | 0;
  env.mp_js_ticks_ms = () => host.nowMs() | 0;
  env.mp_js_time_ms = () => host.nowMs();
  const unreachable = () => { throw new EngineTrap("host unreachable", "the host's JavaScript is not reachable from scripts"); };
  for (const name of BRIDGE) env[name] = unreachable;
  env.call2 = (ref: number, viaCall: number, a0: number, a1: number, out: number) => (ref === HOST_REF && host.hostCall2 ? host.hostCall2(viaCall, a0, a1, out) : unreachable());
  for (const name of SYSCALLS) env[name] = () => -ENOENT;
  // Asked when a Python object is answered to the host: there is never a JavaScript proxy of it already.
  env.js_check_existing = () => -1;
  env._abort_js = () => { throw new EngineTrap("engine failure", "the engine aborted"); };
  env.emscripten_resize_heap = (requested: number) => {
    const memory = host.memory();
    const wanted = requested >>> 0;
    if (wanted > host.memoryLimitBytes) throw new EngineTrap("out of memory", `out of memory (memory limit ${host.memoryLimitBytes} bytes)`);
    const pages = Math.ceil((wanted - memory.buffer.byteLength) / 65536);
    if (pages > 0) memory.grow(pages);
    return 1;
  };
  const wasi: Record<string, (...args: never[]) => unknown> = {
    fd_write: (fd: number, iovs: number, count: number, written: number) => {
      const view = new DataView(host.memory().buffer);
      let total = 0;
      for (let i = 0; i < count; i++) {
        const ptr = view.getUint32(iovs + i * 8, true);
        const len = view.getUint32(iovs + i * 8 + 4, true);
        if (fd === 1 || fd === 2) host.write(fd, new Uint8Array(view.buffer, ptr, len));
        total += len;
      }
      view.setUint32(written, total, true);
      return fd === 1 || fd === 2 ? 0 : EBADF;
    },
    fd_read: () => EBADF,
    fd_close: () => EBADF,
    fd_sync: () => EBADF,
    fd_seek: () => ESPIPE,
  };
  return { env: env as WebAssembly.ModuleImports, wasi_snapshot_preview1: wasi as WebAssembly.ModuleImports };
}

/** Refuses a module that imports anything {@link engineImports} does not answer (a new wasm version must be looked at first). */
export function checkImports(module: WebAssembly.Module, imports: WebAssembly.Imports): void {
  for (const wanted of WebAssembly.Module.imports(module)) {
    const provided = imports[wanted.module]?.[wanted.name];
    if (wanted.kind !== "function" || typeof provided !== "function") {
      throw new Error(`the Python engine asks for an import this loader does not know: ${wanted.module}.${wanted.name} (${wanted.kind}); refusing to start it`);
    }
  }
}
