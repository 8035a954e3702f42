import { services } from "@playfield/core";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { createClient } from "../src/index.js";
import { BASE_URL, methodUrl, testClient, useMswServer } from "./helpers.js";

const server = useMswServer();

describe("createClient", () => {
  it("should have one function per method of every service, under the service's local name", () => {
    const { client } = testClient();
    for (const [key, service] of Object.entries(services)) {
      const group = (client as unknown as Record<string, Record<string, unknown>>)[key]!;
      expect(Object.keys(group).sort()).toEqual(Object.keys(service.methods).sort());
      for (const name of Object.keys(service.methods)) expect(typeof group[name]).toBe("function");
    }
  });

  it("should POST the request as JSON to {baseUrl}/svc.platform.v1.<Service>/<Method>", async () => {
    const seen: { method: string; url: string; contentType: string | null; body: unknown }[] = [];
    server.use(http.post(methodUrl("IdentityService", "SignIn"), async ({ request }) => {
      seen.push({ method: request.method, url: request.url, contentType: request.headers.get("content-type"), body: await request.json() });
      return HttpResponse.json({});
    }));
    const { client } = testClient();
    await client.identity.signIn({ username: "ada", password: "correct horse" });
    expect(seen).toEqual([{
      method: "POST",
      url: `${BASE_URL}/svc.platform.v1.IdentityService/SignIn`,
      contentType: "application/json",
      body: { username: "ada", password: "correct horse" },
    }]);
  });

  it("should send {} for a call with no request, and tolerate a trailing slash on baseUrl", async () => {
    const bodies: unknown[] = [];
    server.use(http.post(methodUrl("IdentityService", "StartGuest"), async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json({});
    }));
    const client = createClient({ baseUrl: `${BASE_URL}/` });
    await client.identity.startGuest();
    expect(bodies).toEqual([{}]);
  });

  it("should send x-svc-client only when a client name is given", async () => {
    const names: (string | null)[] = [];
    server.use(http.post(methodUrl("IdentityService", "StartGuest"), ({ request }) => {
      names.push(request.headers.get("x-svc-client"));
      return HttpResponse.json({});
    }));
    await testClient({ clientName: "Web (Firefox on Linux)" }).client.identity.startGuest();
    await testClient().client.identity.startGuest();
    expect(names).toEqual(["Web (Firefox on Linux)", null]);
  });

  it("should send a call's extra headers", async () => {
    let trace: string | null = null;
    server.use(http.post(methodUrl("IdentityService", "StartGuest"), ({ request }) => {
      trace = request.headers.get("x-trace-id");
      return HttpResponse.json({});
    }));
    await testClient().client.identity.startGuest({}, { headers: { "x-trace-id": "t-1" } });
    expect(trace).toBe("t-1");
  });

  it("should use the fetch it is given", async () => {
    const urls: string[] = [];
    const client = createClient({
      baseUrl: BASE_URL,
      fetch: async (input) => {
        urls.push(String(input));
        return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
      },
    });
    await client.identity.startGuest();
    expect(urls).toEqual([`${BASE_URL}/svc.platform.v1.IdentityService/StartGuest`]);
  });

  it("should decode snake_case names and omitted fields into the full answer, int64 as numbers", async () => {
    server.use(http.post(methodUrl("IdentityService", "SignIn"), () => HttpResponse.json({
      access_token: "a",
      expires_in_seconds: "900",
      me: { user: { id: "u1", display_name: "Ada" }, age_band: "AGE_BAND_18_PLUS", unknownField: 1 },
    })));
    const answer = await testClient().client.identity.signIn({ username: "ada", password: "pw" });
    expect(answer).toEqual({
      accessToken: "a",
      refreshToken: "",
      expiresInSeconds: 900,
      me: {
        user: { id: "u1", username: "", displayName: "Ada", headshotUrl: "" },
        ageBand: "AGE_BAND_18_PLUS",
        createdAt: "",
        guest: false,
      },
    });
  });

  it("should fill an empty answer body and lists of messages", async () => {
    server.use(
      http.post(methodUrl("IdentityService", "GetSettings"), () => new HttpResponse(null, { status: 200 })),
      http.post(methodUrl("IdentityService", "ListDevices"), () => HttpResponse.json({ devices: [{ id: "d1", current: true }, {}] })),
    );
    const { client } = testClient();
    expect(await client.identity.getSettings()).toEqual({ whoCanMessage: "", whoCanFriend: "", whoCanJoin: "", theme: "" });
    expect(await client.identity.listDevices()).toEqual({
      devices: [
        { id: "d1", label: "", createdAt: "", lastUsedAt: "", current: true },
        { id: "", label: "", createdAt: "", lastUsedAt: "", current: false },
      ],
    });
  });
});
