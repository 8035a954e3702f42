/*
 * The in-process handler (no socket): authenticated GetMe through
 * `server.handle`, against a bare fetch handler that parses the JSON body and
 * answers JSON. Also memory-server start time.
 *
 *   node --conditions=@playfield/source --import tsx bench/in-process.bench.ts
 */
import { createMemoryServer, generateSigningKey } from "@playfield/server-memory";
import { formatDuration, measure, medianMs, printTable } from "./lib/measure.js";

const server = createMemoryServer({ environment: "test" });
const user = await server.seed.user();
const url = "http://playfield.test/svc.platform.v1.IdentityService/GetMe";
const headers = { "content-type": "application/json", authorization: `Bearer ${user.accessToken}` };

const bare = async (request: Request) => new Response(JSON.stringify({ echo: JSON.parse(await request.text()) as unknown, user: { id: "usr_1", username: "player" } }), { headers: { "content-type": "application/json" } });

const baseline = await measure("bare fetch handler (parse JSON, answer JSON)", async () => {
  const response = await bare(new Request(url, { method: "POST", headers, body: "{}" }));
  await response.text();
});
const getMe = await measure("GetMe through server.handle", async () => {
  const response = await server.handle(new Request(url, { method: "POST", headers, body: "{}" }));
  if (response.status !== 200) throw new Error(await response.text());
  await response.text();
});
printTable("In-process handler: authenticated GetMe", [baseline, getMe], baseline);

const key = generateSigningKey();
const keyMs = await medianMs(() => generateSigningKey());
const startMs = await medianMs(() => createMemoryServer({ environment: "test", keys: [key] }));
const startWithKeyGenMs = await medianMs(() => createMemoryServer({ environment: "test" }));
console.log("\n### Memory server start (median of 21)\n");
console.log("| case | time | vs generating one Ed25519 key |");
console.log("|---|---:|---:|");
console.log(`| generate one Ed25519 signing key (baseline) | ${formatDuration(keyMs)} | 1.00 |`);
console.log(`| createMemoryServer with given keys | ${formatDuration(startMs)} | ${(startMs / keyMs).toFixed(2)} |`);
console.log(`| createMemoryServer, key generated at start | ${formatDuration(startWithKeyGenMs)} | ${(startWithKeyGenMs / keyMs).toFixed(2)} |`);
