import { defineConfig } from "tsup";

// The library in both module formats. The command is @playfield/cli.
export default defineConfig({
  entry: { index: "src/index.ts", node: "src/node/index.ts" },
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "es2022",
});
