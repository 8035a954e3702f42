#!/usr/bin/env node
/*
 * `playfield-server`: the reference server in memory, for local development.
 * PORT (default 8080) and HOST (default 127.0.0.1) come from the environment.
 */
import { startServer } from "./node/start-server.js";

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? "127.0.0.1";
const environment = process.env.PLAYFIELD_ENV === "production" ? "production" : "development";

const server = await startServer({ port, host, environment });
console.log(`Playfield server (in memory) listening on ${server.url}`);
console.log(`  health: ${server.url}/healthz   keys: ${server.url}/.well-known/jwks.json`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void server.close().finally(() => process.exit(0));
  });
}
