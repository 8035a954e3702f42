/*
 * Writes the Python engine: MicroPython's wasm from the pinned npm package,
 * rewritten with binaryen (fuel probes, memory limits), as a base64 module.
 * `packages/script-runtime/test/python-engine-rewrite.test.ts` fails when
 * the committed file is not what this writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ENGINE_WASM_PATH, engineWasmFile } from "../packages/script-runtime/src/python/engine-wasm-file.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(root, "packages/script-runtime/package.json"));
const shipped = readFileSync(require.resolve("@micropython/micropython-webassembly-pyscript/micropython.wasm"));
writeFileSync(join(root, ENGINE_WASM_PATH), engineWasmFile(shipped));
console.log(`wrote ${ENGINE_WASM_PATH}`);
