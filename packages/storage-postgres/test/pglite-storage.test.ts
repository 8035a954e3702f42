/*
 * The storage conformance suite over PGlite in memory: one database for the
 * whole file (a new one takes seconds to start); the suite clears it
 * before each test.
 */
import { storageContract } from "@playfield/storage-contract";
import { afterAll, beforeAll } from "vitest";
import { createPgliteStorage } from "../src/index.js";

// Buckets of 32 entries: the contract's counted tables then split and merge their counts.
const storage = createPgliteStorage({ countedBucketRows: 32 });
beforeAll(() => storage.clear(), 120_000);
afterAll(() => storage.close());

storageContract("pglite", () => storage, { numRuns: 10 });
