import { defineConfig } from "tsup";

// The library in both module formats; the command line (bin/ runs
// dist/cli.js) only as ESM, sharing the library's chunks rather than
// bundling the whole server again.
export default defineConfig([
  {
    entry: { index: "src/index.ts", node: "src/node/index.ts", cli: "src/cli.ts" },
    format: ["esm"],
    dts: { entry: { index: "src/index.ts", node: "src/node/index.ts" } },
    sourcemap: true,
    clean: true,
    target: "es2022",
  },
  {
    entry: { index: "src/index.ts", node: "src/node/index.ts" },
    format: ["cjs"],
    dts: true,
    sourcemap: true,
    target: "es2022",
  },
]);
