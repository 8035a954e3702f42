import { defineConfig } from "vitest/config";

// Tests run from source: the "@playfield/source" export condition points
// every workspace import at src/, so no build is needed to test.
const sourceConditions = { resolve: { conditions: ["@playfield/source"] } };

export default defineConfig({
  ...sourceConditions,
  test: {
    projects: [
      "core", "client", "server-memory", "script-runtime",
    ].map((name) => ({
      ...sourceConditions,
      test: { name, root: `packages/${name}`, include: ["test/**/*.test.ts", "src/**/*.test.ts"] },
    })).concat([{
      ...sourceConditions,
      test: { name: "examples", root: "examples", include: ["*/test/**/*.test.ts"] },
    }, {
      ...sourceConditions,
      test: { name: "repo", root: ".", include: ["scripts/**/*.test.ts"] },
    }]),
  },
});
