import fc from "fast-check";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { applyInterceptors, type UnaryFn, type UnaryRequest } from "../src/interceptor.js";
import type { Interceptor } from "../src/index.js";
import { useFakeAuth } from "./fake-auth-server.js";
import { methodUrl, testClient, useMswServer } from "./helpers.js";

const server = useMswServer();

describe("applyInterceptors", () => {
  it("should run interceptors first-outermost around the call, for any number of them", async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: 6 }), async (n) => {
      const trace: string[] = [];
      const tracing = (i: number): Interceptor => (next) => async (req) => {
        trace.push(`in ${i}`);
        const res = await next(req);
        trace.push(`out ${i}`);
        return res;
      };
      const base: UnaryFn = async () => {
        trace.push("call");
        return { status: 200, header: new Headers(), message: {} };
      };
      await applyInterceptors(base, Array.from({ length: n }, (_, i) => tracing(i)))({} as UnaryRequest);
      const ids = Array.from({ length: n }, (_, i) => i);
      expect(trace).toEqual([...ids.map((i) => `in ${i}`), "call", ...ids.reverse().map((i) => `out ${i}`)]);
    }));
  });
});

describe("client interceptors", () => {
  it("should let an interceptor add headers and read the decoded answer", async () => {
    let header: string | null = null;
    server.use(http.post(methodUrl("IdentityService", "SignIn"), ({ request }) => {
      header = request.headers.get("x-request-id");
      return HttpResponse.json({ expiresInSeconds: "60" });
    }));
    const answers: unknown[] = [];
    const { client } = testClient({
      interceptors: [(next) => async (req) => {
        req.header.set("x-request-id", "r-1");
        const res = await next(req);
        answers.push(res.message.expiresInSeconds);
        return res;
      }],
    });
    await client.identity.signIn({ username: "ada", password: "pw" });
    expect(header).toBe("r-1");
    expect(answers).toEqual([60]);
  });

  it("should show interceptors every request sent, with its final headers: the refused call, the refresh and the retry", async () => {
    const fake = useFakeAuth(server);
    const sent: string[] = [];
    const { client } = testClient({
      interceptors: [(next) => (req) => {
        sent.push(`${req.method.name} ${req.header.get("authorization") ?? "-"}`);
        return next(req);
      }],
    });
    await client.identity.signIn({ username: "ada", password: "pw" });
    fake.expireAccess();
    await client.identity.getMe();
    expect(sent).toEqual(["SignIn -", "GetMe Bearer access-1", "Refresh -", "GetMe Bearer access-2"]);
  });

  it("should let an interceptor's error reach the caller as a PlayfieldError", async () => {
    const { client } = testClient({ interceptors: [() => () => Promise.reject(new Error("offline mode"))] });
    await expect(client.identity.startGuest()).rejects.toMatchObject({ name: "PlayfieldError", code: "internal", rawMessage: "offline mode" });
  });
});
