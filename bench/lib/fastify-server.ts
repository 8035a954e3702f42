/*
 * The peer of the HTTP benchmarks: what a user might write instead, fastify
 * answering the same paths with the same JSON. It parses each body and
 * compares the Bearer header with one known string; it keeps no state,
 * verifies no signature and validates nothing, so its figures are the
 * framework's own cost, an upper bound for a real service on it. Run as a
 * child process; the answers come, recorded from Playfield, as JSON in
 * PLAYFIELD_BENCH_ANSWERS ({ token, answers: { path: body } }). Prints its URL
 * on the first line.
 */
import Fastify from "fastify";

const { token, answers } = JSON.parse(process.env.PLAYFIELD_BENCH_ANSWERS ?? "{}") as { token: string; answers: Record<string, string> };
const app = Fastify({ logger: false });
const bearer = `Bearer ${token}`;

for (const [path, answer] of Object.entries(answers)) {
  const body = JSON.parse(answer) as unknown;
  if (path === "/healthz") {
    app.get(path, async () => body);
    continue;
  }
  const open = path.endsWith("/ListCreditPacks");
  app.post(path, async (request, reply) => {
    if (!open && request.headers.authorization !== bearer) return reply.code(401).send({ code: "unauthenticated", message: "token" });
    return body;
  });
}

const url = await app.listen({ port: 0, host: "127.0.0.1" });
console.log(url);
