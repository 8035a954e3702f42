import { Code, codeToHttpStatus } from "@playfield/core";
import fc from "fast-check";
import { delay, http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { methodUrl, testClient, useMswServer, waitError } from "./helpers.js";

const server = useMswServer();
const SIGN_IN = methodUrl("IdentityService", "SignIn");
const signIn = (client: ReturnType<typeof testClient>["client"], options = {}) =>
  client.identity.signIn({ username: "ada", password: "pw" }, options);

describe("client errors", () => {
  it("should throw the server's error JSON as a PlayfieldError with its code, message and details", async () => {
    server.use(http.post(SIGN_IN, () => HttpResponse.json({
      code: "invalid_argument",
      message: "username: 3 to 20 letters, digits or _",
      details: [{ path: ["username"], message: "3 to 20 letters, digits or _" }],
    }, { status: 400 })));
    const error = await waitError(signIn(testClient().client));
    expect(error.code).toBe(Code.InvalidArgument);
    expect(error.rawMessage).toBe("username: 3 to 20 letters, digits or _");
    expect(error.message).toBe("[invalid_argument] username: 3 to 20 letters, digits or _");
    expect(error.details).toEqual([{ path: ["username"], message: "3 to 20 letters, digits or _" }]);
    expect(error.isWireError).toBe(true);
  });

  it("should keep the code and message of any error the server answers", async () => {
    const { client } = testClient();
    await fc.assert(fc.asyncProperty(fc.constantFrom(...Object.values(Code)), fc.string(), async (code, message) => {
      server.use(http.post(SIGN_IN, () => HttpResponse.json({ code, message }, { status: codeToHttpStatus[code] })));
      const error = await waitError(signIn(client));
      expect([error.code, error.rawMessage]).toEqual([code, message]);
    }), { numRuns: 50 });
  });

  it("should take the code from the HTTP status when the error body is not JSON", async () => {
    const statuses = [[502, Code.Unavailable], [503, Code.Unavailable], [500, Code.Internal], [429, Code.ResourceExhausted], [404, Code.Unimplemented]] as const;
    const { client } = testClient();
    for (const [status, code] of statuses) {
      server.use(http.post(SIGN_IN, () => new HttpResponse("<html>Bad gateway</html>", { status, headers: { "content-type": "text/html" } })));
      const error = await waitError(signIn(client));
      expect([status, error.code, error.isWireError]).toEqual([status, code, true]);
    }
  });

  it("should take the code from the HTTP status when the error JSON has no known code", async () => {
    server.use(http.post(SIGN_IN, () => HttpResponse.json({ error: "nope" }, { status: 403 })));
    expect((await waitError(signIn(testClient().client))).code).toBe(Code.PermissionDenied);
  });

  it("should throw internal for a successful answer that is not a JSON object", async () => {
    const { client } = testClient();
    for (const body of ["not json", "[1,2]", "null"]) {
      server.use(http.post(SIGN_IN, () => new HttpResponse(body, { status: 200 })));
      expect((await waitError(signIn(client))).code).toBe(Code.Internal);
    }
  });

  it("should throw unavailable when the network fails", async () => {
    server.use(http.post(SIGN_IN, () => HttpResponse.error()));
    const error = await waitError(signIn(testClient().client));
    expect(error.code).toBe(Code.Unavailable);
    expect(error.isWireError).toBe(false);
    expect(error.cause).toBeDefined();
  });

  it("should throw unavailable when a given fetch throws", async () => {
    const { client } = testClient({ fetch: () => Promise.reject(new TypeError("Failed to fetch")) });
    const error = await waitError(signIn(client));
    expect([error.code, error.rawMessage]).toEqual([Code.Unavailable, "/svc.platform.v1.IdentityService/SignIn: Failed to fetch"]);
  });

  it("should throw deadline_exceeded when the client's timeout passes", async () => {
    server.use(http.post(SIGN_IN, async () => {
      await delay("infinite");
      return HttpResponse.json({});
    }));
    const error = await waitError(signIn(testClient({ timeoutMs: 20 }).client));
    expect(error.code).toBe(Code.DeadlineExceeded);
  });

  it("should throw deadline_exceeded when a call's timeout passes, even while the body is read", async () => {
    server.use(http.post(SIGN_IN, () => new HttpResponse(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode("{")) }), { status: 200 })));
    const error = await waitError(signIn(testClient().client, { timeoutMs: 20 }));
    expect(error.code).toBe(Code.DeadlineExceeded);
  });

  it("should let a call's timeout of 0 turn off the client's", async () => {
    server.use(http.post(SIGN_IN, async () => {
      await delay(40);
      return HttpResponse.json({ accessToken: "a" });
    }));
    const answer = await signIn(testClient({ timeoutMs: 10 }).client, { timeoutMs: 0 });
    expect(answer.accessToken).toBe("a");
  });

  it("should throw canceled when the call is aborted in flight", async () => {
    const controller = new AbortController();
    server.use(http.post(SIGN_IN, async () => {
      controller.abort();
      await delay("infinite");
      return HttpResponse.json({});
    }));
    const error = await waitError(signIn(testClient().client, { signal: controller.signal }));
    expect(error.code).toBe(Code.Canceled);
  });

  it("should throw canceled and send nothing when the signal is already aborted", async () => {
    // No handler: a request that got out would fail as unhandled, not as canceled.
    const error = await waitError(signIn(testClient().client, { signal: AbortSignal.abort() }));
    expect(error.code).toBe(Code.Canceled);
  });
});
