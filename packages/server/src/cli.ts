#!/usr/bin/env node
/*
 * `playfield-server`: the platform server on a port. Its data lives in
 * memory (lost when it stops). PORT (default 8080), HOST (default 127.0.0.1)
 * and PLAYFIELD_ENV (`production`; anything else is `development`) come from
 * the environment.
 */
import { startServer } from "./node/start-server.js";
import { createMemoryStorage } from "./ports/memory-storage/index.js";

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? "127.0.0.1";
const environment = process.env.PLAYFIELD_ENV === "production" ? "production" : "development";

const server = await startServer({ storage: createMemoryStorage(), port, host, environment });
console.log(`Playfield server (in memory) listening on ${server.url}`);
console.log(`  health: ${server.url}/healthz   keys: ${server.url}/.well-known/jwks.json`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void server.close().finally(() => process.exit(0));
  });
}
