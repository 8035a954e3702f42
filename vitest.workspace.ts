import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

// Tests run from source: the "@playfield/source" export condition points
// every workspace import at src/, so no build is needed to test.
// Node tests resolve through Vite's SSR settings, so the condition goes there too.
const conditions = ["@playfield/source"];
// Roots are absolute so that the config serves from any folder (an example's own `npm test`).
const repo = fileURLToPath(new URL(".", import.meta.url));
// Tests that drive Chromium (`*.browser.test.ts`) run in the "browser" project alone: its
// global setup looks for the browser once, says once when it is missing, and fails in CI.
const browserTests = "**/*.browser.test.ts";
const exclude = [...configDefaults.exclude, browserTests];
// Suites of a package that need PostgreSQL (`test/postgres/`) run in a project of their own with the database's global setup.
const postgresTests = "test/postgres/**/*.test.ts";
// Why 30 s and not Vitest's 5 s: property tests, tsc runs and spawned servers take a few
// seconds alone and several times that on a loaded 2-core machine; a real hang still fails.
const timeouts = { testTimeout: 30_000, hookTimeout: 60_000 };
const sourceConditions = {
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
};

export default defineConfig({
  ...sourceConditions,
  test: {
    projects: [
      ...["core", "client", "server", "server-memory", "script-runtime"].map((name) => ({
        ...sourceConditions,
        test: { ...timeouts, name, root: `${repo}packages/${name}`, include: ["test/**/*.test.ts", "src/**/*.test.ts"], exclude: [...exclude, postgresTests] },
      })),
      {
        ...sourceConditions,
        test: {
          ...timeouts,
          // The server's suites on PostgreSQL (test/postgres/): the storage-postgres setup finds the database once, or says it is skipped (fails in CI).
          name: "server-postgres",
          root: `${repo}packages/server`,
          include: [postgresTests],
          exclude,
          globalSetup: [`${repo}packages/storage-postgres/test/postgres-setup.ts`],
        },
      },
      {
        ...sourceConditions,
        test: {
          ...timeouts,
          ...timeouts,
          name: "storage-postgres",
          root: `${repo}packages/storage-postgres`,
          include: ["test/**/*.test.ts", "src/**/*.test.ts"],
          exclude,
          // Finds out once whether PostgreSQL answers; says once when it does not, and fails in CI.
          globalSetup: ["test/postgres-setup.ts"],
        },
      },
      {
        ...sourceConditions,
        test: {
          ...timeouts,
          name: "realtime-redis",
          root: `${repo}packages/realtime-redis`,
          include: ["test/**/*.test.ts", "src/**/*.test.ts"],
          exclude,
          // Find out once whether Redis (and, for the two-process suite, PostgreSQL) answers; say once when not, and fail in CI.
          globalSetup: ["test/redis-setup.ts", `${repo}packages/storage-postgres/test/postgres-setup.ts`],
        },
      },
      {
        ...sourceConditions,
        test: { ...timeouts, name: "examples", root: `${repo}examples`, include: ["*/test/**/*.test.ts"], exclude },
      },
      {
        ...sourceConditions,
        test: { ...timeouts, name: "repo", root: repo, include: ["scripts/**/*.test.ts", "bench/**/*.test.ts"], exclude },
      },
      {
        ...sourceConditions,
        test: {
          ...timeouts,
          name: "browser",
          root: repo,
          include: [`packages/*/test/${browserTests}`, `examples/*/test/${browserTests}`],
          globalSetup: ["scripts/browser/chromium-setup.ts"],
        },
      },
    ],
  },
});
