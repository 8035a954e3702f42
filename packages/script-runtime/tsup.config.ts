import { defineConfig } from "tsup";

// The library in both module formats; the command line (bin/ runs
// dist/cli.js) only as ESM, sharing the library's chunks.
export default defineConfig([
  {
    // engine-worker.js is the worker threads' entry, found beside the chunk that starts them.
    entry: { index: "src/index.ts", node: "src/node.ts", cli: "src/cli.ts", "engine-worker": "src/worker/engine-worker.ts" },
    format: ["esm"],
    dts: { entry: { index: "src/index.ts", node: "src/node.ts" } },
    sourcemap: true,
    clean: true,
    target: "es2022",
  },
  {
    entry: { index: "src/index.ts", node: "src/node.ts" },
    format: ["cjs"],
    dts: true,
    // import.meta.url, by which the worker engines find engine-worker.js.
    shims: true,
    sourcemap: true,
    target: "es2022",
  },
]);
