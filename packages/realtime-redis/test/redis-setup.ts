/*
 * Vitest global setup of this package: finds out once whether Redis
 * answers at PLAYFIELD_TEST_REDIS_URL (default: this machine's Redis) and
 * hands the URL (or null) to the test files. When it does not answer, the
 * Redis suites are skipped with one line saying so; in CI (env CI or
 * PLAYFIELD_CI) they must run, so the run fails instead.
 */
import { Redis } from "ioredis";
import type { TestProject } from "vitest/node";

const DEFAULT_URL = "redis://127.0.0.1:6379";

declare module "vitest" {
  export interface ProvidedContext {
    /** The Redis server the suites use, or null when none answered. */
    redisUrl: string | null;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const url = process.env.PLAYFIELD_TEST_REDIS_URL || DEFAULT_URL;
  const failure = await probe(url);
  if (failure === null) {
    project.provide("redisUrl", url);
    return;
  }
  const message = `Redis at ${url.replace(/\/\/([^@]*)@/, "//***@")} did not answer (${failure})`;
  if (process.env.CI || process.env.PLAYFIELD_CI) throw new Error(`${message}: CI must run the Redis suites (start it, or set PLAYFIELD_TEST_REDIS_URL)`);
  console.warn(`\n[realtime-redis] ${message}: the Redis suites are SKIPPED. Start Redis or set PLAYFIELD_TEST_REDIS_URL to run them.\n`);
  project.provide("redisUrl", null);
}

async function probe(url: string): Promise<string | null> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 3_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    client.disconnect();
  }
}
