import { createManualClock, type ManualClock } from "@playfield/core";
import { http, HttpResponse, type JsonBodyType } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { createClient, PlayfieldError, type ClientOptions, type PlayfieldClient } from "../src/index.js";

export const BASE_URL = "https://api.playfield.test";

/** The URL of a method: `BASE_URL/svc.platform.v1.<service>/<method>`. */
export const methodUrl = (service: string, method: string) => `${BASE_URL}/svc.platform.v1.${service}/${method}`;

/** An msw server for one test file: listening for the file, handlers reset after each test, unhandled requests fail. */
export function useMswServer() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** A POST handler of one method answering `answer` (JSON, status 200 unless given). */
export function answer(service: string, method: string, body: JsonBodyType, status = 200) {
  return http.post(methodUrl(service, method), () => HttpResponse.json(body, { status }));
}

/** An AuthResponse as the server writes it: int64 as a string, defaults left out. */
export function authJson(n: number, expiresInSeconds = 900) {
  return {
    accessToken: `access-${n}`,
    refreshToken: `refresh-${n}`,
    expiresInSeconds: String(expiresInSeconds),
    me: { user: { id: "u1", username: "ada" } },
  };
}

/** A client on BASE_URL with a manual clock. */
export function testClient(options: Partial<ClientOptions> = {}): { client: PlayfieldClient; clock: ManualClock } {
  const clock = createManualClock();
  return { client: createClient({ baseUrl: BASE_URL, clock, ...options }), clock };
}

/** Awaits a promise that must reject with a PlayfieldError, and returns the error. */
export async function waitError(promise: Promise<unknown>): Promise<PlayfieldError> {
  const error = await promise.then(
    () => { throw new Error("expected the call to fail"); },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PlayfieldError);
  return error as PlayfieldError;
}

/** The bearer token of a request, or `null`. */
export const bearerOf = (request: Request) => request.headers.get("authorization");
