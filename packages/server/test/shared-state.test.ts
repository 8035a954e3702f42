import { createMemoryStorage } from "../src/index.js";
import { sharedStateSuite } from "./shared-state-suite.js";

/* The two-server suite on the memory storage; test/postgres/shared-state.test.ts runs it on PostgreSQL. */
sharedStateSuite("memory", async () => {
  const storage = createMemoryStorage();
  return { storages: [storage, storage], close: async () => {} };
});
