import { ENGINE_WASM_BASE64 } from "./micropython-wasm.js";

let compiled: Promise<WebAssembly.Module> | undefined;

/** The rewritten MicroPython module, compiled once per process (or page) and shared by every Python script. */
export function pythonEngineModule(): Promise<WebAssembly.Module> {
  compiled ??= WebAssembly.compile(fromBase64(ENGINE_WASM_BASE64));
  return compiled;
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
