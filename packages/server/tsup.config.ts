import { defineConfig } from "tsup";

export default defineConfig([
  {
    entry: { index: "src/index.ts", node: "src/node/index.ts" },
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "es2022",
  },
  {
    // The command line is ESM only: it starts with a top-level await.
    entry: { cli: "src/cli.ts" },
    format: ["esm"],
    sourcemap: true,
    target: "es2022",
  },
]);
