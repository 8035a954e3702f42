import { defineConfig } from "vitest/config";

// Tests run from source: the "@playfield/source" export condition points
// every workspace import at src/, so no build is needed to test.
// Node tests resolve through Vite's SSR settings, so the condition goes there too.
const conditions = ["@playfield/source"];
const sourceConditions = {
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
};

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
