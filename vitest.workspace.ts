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
// The server's end-to-end HTTP suites, run again on PostgreSQL. The hostile-input properties and
// robustness run there too with fewer cases, from a fixed seed (test/property-runs.ts), each case
// comparing and putting back only the tables it wrote (hostile-world.ts): under half a minute of one
// worker on a loaded machine. Not there (memory only): hostile realtime and prototype-names-as-fields
// (thousands of calls; storage-light, or covered by the API property), realtime/chat/presence (fan-out
// in the process, storage-light), cors (no storage), the model tests of datastore/chat/social/search
// (property runs, each a new world).
const POSTGRES_SUITES = [
  "endpoints", "identity", "password-throttles", "password-throttles.property", "avatar", "economy", "datastore", "datastore-export", "datastore-join",
  "datastore-limits", "datastore-ordered", "datastore-permissions", "social", "session", "catalog", "catalog-content",
  "catalog-discovery", "creator", "creator-stats", "safety", "economy.model.property", "visibility.property",
  "hostile/hostile-world", "hostile/hostile-api.property", "hostile/hostile-http.property", "robustness.property", "regression/*",
  "admin-api", "hostile/hostile-admin.property",
].map((suite) => `test/${suite}.test.ts`);
// PGlite runs the same queries as PostgreSQL in one connection: a subset that writes through every service,
// and the hostile requests to every method (another engine under the same SQL: NUL, surrogates, huge numbers).
const PGLITE_SUITES = [
  "endpoints", "identity", "password-throttles", "password-throttles.property", "economy", "datastore", "social", "session", "catalog",
  "economy.model.property", "visibility.property", "hostile/hostile-api.property", "admin-api",
]
  .map((suite) => `test/${suite}.test.ts`);
const sourceConditions = {
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
};

export default defineConfig({
  ...sourceConditions,
  test: {
    // Two workers, not Vitest's default of cores − 1 (one here): most suites wait on sockets,
    // child processes and databases rather than the CPU, so two files at once finish the run sooner.
    maxWorkers: 2,
    projects: [
      ...["core", "client", "server", "server-memory", "script-runtime"].map((name) => ({
        ...sourceConditions,
        test: { ...timeouts, name, root: `${repo}packages/${name}`, include: ["test/**/*.test.ts", "src/**/*.test.ts"], exclude: [...exclude, postgresTests] },
      })),
      // The server's end-to-end suites again, on embedded PGlite and on PostgreSQL
      // (packages/server/test/storage-under-test.ts). Suites left to memory alone are listed with the reason.
      ...(["pglite", "postgres"] as const).map((serverStorage) => ({
        ...sourceConditions,
        test: {
          ...timeouts,
          name: `server-${serverStorage}`,
          root: `${repo}packages/server`,
          // server-postgres also runs the suites that need PostgreSQL itself (test/postgres/).
          include: serverStorage === "pglite" ? PGLITE_SUITES : [...POSTGRES_SUITES, postgresTests],
          exclude,
          provide: { serverStorage },
          // PostgreSQL: found once, or said skipped (fails in CI). PGlite: one new database dumped, loaded by each file.
          globalSetup: [`${repo}packages/storage-postgres/test/${serverStorage === "postgres" ? "postgres-setup" : "pglite-template"}.ts`],
        },
      })),
      {
        ...sourceConditions,
        test: {
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
          name: "cli",
          root: `${repo}packages/cli`,
          include: ["test/**/*.test.ts", "src/**/*.test.ts"],
          exclude,
          // The command's world files and pool size on PostgreSQL (test/postgres/): found once, or said skipped (fails in CI).
          globalSetup: [`${repo}packages/storage-postgres/test/postgres-setup.ts`],
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
