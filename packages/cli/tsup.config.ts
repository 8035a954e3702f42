import { defineConfig } from "tsup";

// The command alone (bin/ runs dist/cli.js), as ESM; the server, the
// adapters and the core stay imports of their own packages.
export default defineConfig({
  entry: { cli: "src/cli.ts" },
  format: ["esm"],
  sourcemap: true,
  clean: true,
  target: "es2022",
});
