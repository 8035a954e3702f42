import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { testServer } from "./fixtures.js";

/** A GET with the path sent exactly as written (fetch would normalise it first), answering status and body. */
function rawGet(baseUrl: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}/`, { path, method: "GET" }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => { body += chunk; });
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("Node adapter: the path a route sees", () => {
  it("should read a path as a Request would: dot segments resolved, the query apart", async () => {
    await using t = await testServer("listening");
    for (const path of ["/healthz", "/healthz?probe=1", "/x/../healthz", "/./healthz", "/x/%2e%2e/healthz"]) {
      const { status, body } = await rawGet(t.baseUrl, path);
      expect(status, path).toBe(200);
      expect(JSON.parse(body), path).toEqual({ status: "ok" });
    }
    expect((await rawGet(t.baseUrl, "/healthz/")).status).toBe(404);
  });
});
