/*
 * The Playfield server of the HTTP benchmarks, as a child process: in memory,
 * production settings, one seeded account. Prints its URL and the account's access token as JSON
 * on the first line.
 */
import { startServer } from "@playfield/server-memory";

// Configured as in production: answers are not re-validated against their schemas.
const server = await startServer({ port: 0, environment: "production" });
const user = await server.seed.user();
console.log(JSON.stringify({ url: server.url, token: user.accessToken }));
