import { createAdminClient, type PlayfieldAdminClient } from "@playfield/client";
import { addOperator, bootstrapOperators, createAdminApi, type AdminApiHandler } from "@playfield/server";
import { testServer, type TestServer } from "./fixtures.js";

export const ADMIN_PASSWORD = "admin password 1";
export const ADMIN_URL = "http://admin.test";

/** A server on the run's storage, its admin API in process, and `admin` signed in. */
export interface AdminWorld extends AsyncDisposable {
  t: TestServer;
  api: AdminApiHandler;
  /** A client of the admin API, not signed in. */
  client(): PlayfieldAdminClient;
  /** `admin`, signed in. */
  admin: PlayfieldAdminClient;
  /** A new operator of a role, signed in. */
  operator(role: "admin" | "moderator" | "support" | "viewer"): Promise<PlayfieldAdminClient>;
}

export async function adminWorld(): Promise<AdminWorld> {
  const t = await testServer("in-process");
  const { deps } = t.server;
  await bootstrapOperators(deps, ADMIN_PASSWORD);
  const api = createAdminApi({ deps });
  // The admin client's fetch calls the handler itself: no listener needed.
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => (await api(new Request(input, init))) ?? new Response("not found", { status: 404 });
  const client = () => createAdminClient({ baseUrl: ADMIN_URL, fetch });
  const admin = client();
  await admin.operators.signIn({ username: "admin", password: ADMIN_PASSWORD });
  let n = 0;
  return {
    t, api, client, admin,
    async operator(role) {
      const username = `${role}_${++n}`;
      await addOperator(deps, { username, password: "operator pw 1", role });
      const c = client();
      await c.operators.signIn({ username, password: "operator pw 1" });
      return c;
    },
    [Symbol.asyncDispose]: () => t[Symbol.asyncDispose](),
  };
}
