/*
 * The baseline server of the HTTP benchmarks: bare node:http that reads a
 * JSON body, parses it and answers JSON. Run as a child process; prints its
 * URL on the first line.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString() || "{}") as unknown;
    const json = JSON.stringify({ echo: body, user: { id: "usr_1", username: "player" } });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
    res.end(json);
  });
});
server.listen(0, "127.0.0.1", () => {
  console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
