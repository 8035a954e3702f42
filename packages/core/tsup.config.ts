import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", wire: "src/wire/index.ts" },
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: true,
  clean: true,
  // One copy of shared code (PlayfieldError) across the index and wire entries, in CJS too, so instanceof holds.
  splitting: true,
  target: "es2022",
});
