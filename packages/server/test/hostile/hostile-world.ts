import { allMethods, isCode, messageName, PRIMARY_INDEX, shapeTable, tables, type MethodDesc, type TableDef, type Tx } from "@playfield/core";
import { createMemoryServer, startServer, type MemoryServer } from "@playfield/server-memory";
import { recordingStorage } from "../recording-storage.js";
import { leaseStorage } from "../storage-under-test.js";
import type { TransportKind } from "../fixtures.js";

/*
 * The world the hostile-input properties run against, on the run's storage
 * (storage-under-test.ts): one of each kind of caller, an experience with a
 * live version and a session, a datastore entry, and the rows of it all.
 * After each case the tables it wrote (and those alone) are compared with
 * those rows when it was refused, and put back: on a database a whole
 * snapshot and restore is a round trip per table, several per case.
 */

/** A caller: a name for failure reports and the token it sends (none for anonymous). */
export interface HostileCaller {
  kind: string;
  token: string | undefined;
}

export interface HostileWorld extends AsyncDisposable {
  server: MemoryServer;
  /** Where calls go, and the fetch that reaches it: the server's own in process, the global one over the socket. */
  baseUrl: string;
  fetch: (request: Request) => Promise<Response>;
  callers: HostileCaller[];
  /** Ids that exist in the world, so that some hostile calls get past `not_found`. */
  known: string[];
  /** A value that exists in the world for a field of this name, if any: a request made of them gets past `not_found`. */
  valueFor(field: string): string | undefined;
  /** The caller most likely to get past the auth check of a method of this auth level. */
  callerFor(auth: string): HostileCaller;
  /**
   * Ends a case: when it was `refused`, answers the tables it changed (see
   * `changedTables`); then puts every table it wrote back as it was, and the clock.
   */
  settle(refused: boolean): Promise<string[]>;
  /** Errors the server reported as internal: a property fails on any. */
  internalErrors: unknown[];
}

/** A call with a JSON text body: status and the parsed answer. */
export async function call(fetch: (request: Request) => Promise<Response>, base: string, method: MethodDesc, body: string, token?: string) {
  const response = await fetch(new Request(`${base}${method.path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  }));
  const text = await response.text();
  let json: { code?: unknown; message?: unknown } = {};
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    json = { message: text };
  }
  return { status: response.status, body: json };
}

async function ok(server: MemoryServer, path: string, body: unknown, token: string) {
  const response = await server.fetch(`http://playfield.test${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`${path}: ${JSON.stringify(json)}`);
  return json;
}

/** Builds the world on a server of its own: seven kinds of caller and something for each service to find. */
export async function hostileWorld(transport: TransportKind = "in-process"): Promise<HostileWorld> {
  const internalErrors: unknown[] = [];
  const lease = await leaseStorage();
  const storage = recordingStorage(lease.storage);
  const options = { storage, onInternalError: (error: unknown) => { internalErrors.push(error); } };
  const listening = transport === "listening" ? await startServer({ port: 0, sessionSweepMs: 0, ...options }) : undefined;
  const world: MemoryServer = listening ?? createMemoryServer(options);
  const owner = await world.seed.user({ username: "owner_1" });
  const account = await world.seed.user({ username: "player_1" });
  const child = await world.seed.user({ username: "child_1", birthdate: "2020-01-01" });
  const guest = await world.seed.guest();
  const signedOut = await world.seed.user({ username: "gone_1" });

  const created = await ok(world, "/svc.platform.v1.CatalogService/CreateExperience", { title: "Sky", hostingTier: "edge", maxPlayers: 10 }, owner.accessToken);
  const experienceId = created.id as string;
  const version = await ok(world, "/svc.platform.v1.CatalogService/PublishVersion", {
    experienceId, contentUrls: { web: "https://cdn.example.com/w.json" }, engineMin: { web: "1.0" },
  }, owner.accessToken);
  await ok(world, "/svc.platform.v1.CatalogService/UpdateExperience", { experienceId, visibility: "public" }, owner.accessToken);
  const joined = await ok(world, "/svc.platform.v1.SessionService/Join", { experienceId, platform: "web", engineVersion: "1.2" }, account.accessToken);
  const game = joined.gameToken as string;
  const sessionId = joined.sessionId as string;
  await ok(world, "/svc.platform.v1.DatastoreService/Set", { key: "save", value: "{\"coins\":5}" }, game);
  await ok(world, "/svc.platform.v1.IdentityService/SignOut", { refreshToken: signedOut.refreshToken }, signedOut.accessToken);
  const order = await ok(world, "/svc.platform.v1.EconomyService/StartTopUp", { packId: "pack_400", method: "sandbox" }, account.accessToken);
  const blob = await ok(world, "/svc.platform.v1.CatalogService/UploadContent", { data: btoa("<html>hi</html>"), contentType: "text/html" }, owner.accessToken);

  const callers: HostileCaller[] = [
    { kind: "anonymous", token: undefined },
    { kind: "account", token: account.accessToken },
    { kind: "owner", token: owner.accessToken },
    { kind: "child", token: child.accessToken },
    { kind: "guest", token: guest.accessToken },
    { kind: "studio", token: await world.seed.scopedToken(owner, "studio") },
    { kind: "avatar", token: await world.seed.scopedToken(account, "avatar") },
    { kind: "game", token: game },
    { kind: "signed-out", token: signedOut.accessToken },
    { kind: "garbage", token: "x.y.z" },
  ];
  const known = [order.orderId as string, blob.sha256 as string, experienceId, version.id as string, sessionId, owner.userId, account.userId, child.userId, guest.userId, owner.username, `dm:${owner.userId}`, `session:${sessionId}`, "save", "web", "head", "1.0"];
  const values: Record<string, string> = {
    experienceId, versionId: version.id as string, sessionId, userId: owner.userId, creatorId: owner.userId, username: owner.username,
    orderId: order.orderId as string, sha256: blob.sha256 as string,
    key: "save", platform: "web", engineVersion: "1.2", channel: `dm:${owner.userId}`, store: "default", scope: "user",
  };
  const byKind = new Map(callers.map((c) => [c.kind, c]));
  const callerFor = (auth: string) => byKind.get(({ none: "anonymous", optional: "account", guest: "account", account: "owner", game: "game" } as Record<string, string>)[auth] ?? "account")!;
  // Rows by primary key, as JSON text too, to compare; one table at a time (a database session runs one statement at a time).
  const rowsOf = (tx: Tx, table: TableDef<unknown>) => tx.query(table, PRIMARY_INDEX);
  const textOf = async (tx: Tx, written: readonly TableDef<unknown>[]) => {
    const text: Record<string, string> = {};
    for (const table of written) text[table.name] = JSON.stringify(await rowsOf(tx, table));
    return text;
  };
  const baseline = new Map<string, unknown[]>();
  const baselineText = await storage.transact(async (tx) => {
    for (const table of tables.allTables as readonly TableDef<unknown>[]) baseline.set(table.name, structuredClone(await rowsOf(tx, table)));
    return textOf(tx, tables.allTables as readonly TableDef<unknown>[]);
  }, { readOnly: true });
  const clockMs = world.clock.now();
  storage.takeWritten();
  const settle = async (refused: boolean) => {
    // Reading datastore calls are counted in the process and written in the background: now, as part of this case.
    await world.lifecycle.idle();
    const written = [...storage.takeWritten().values()];
    if (written.length === 0) return [];
    const before = Object.fromEntries(written.map((table) => [table.name, baselineText[table.name] ?? "[]"]));
    const changed = refused ? changedTables(before, await storage.transact((tx) => textOf(tx, written), { readOnly: true })) : [];
    await storage.transact(async (tx) => {
      for (const table of written) {
        for (const row of await rowsOf(tx, table)) await tx.delete(table, table.primaryKey(row));
        for (const row of baseline.get(table.name) ?? []) await tx.put(table, structuredClone(row));
      }
    });
    storage.takeWritten();
    world.clock.set(clockMs);
    return changed;
  };
  return {
    server: world,
    baseUrl: listening?.url ?? "http://playfield.test",
    fetch: listening ? (request) => fetch(request) : (request) => world.handle(request),
    callers, known, valueFor: (field) => (Object.hasOwn(values, field) ? values[field] : undefined), callerFor, settle, internalErrors,
    async [Symbol.asyncDispose]() {
      await listening?.close();
      lease.release();
    },
  };
}

/** The input message shape of each method, and the field names an error may name. */
export function methodTable() {
  const table = shapeTable();
  return allMethods().map((method) => {
    const input = table[messageName(method.input)]!;
    return { method, input, fields: new Set(input.fields.map((f) => f.name)) };
  });
}

/** What must hold of any answer to a hostile call; answers why not, or null. */
export function answerProblem(answer: { status: number; body: { code?: unknown; message?: unknown } }, fields: ReadonlySet<string>): string | null {
  if (answer.status >= 500) return `answered ${answer.status}`;
  if (answer.status === 200) return null;
  if (!isCode(answer.body.code)) return `no error code: ${JSON.stringify(answer.body).slice(0, 200)}`;
  if (answer.body.code === "invalid_argument") {
    const message = String(answer.body.message);
    const root = /^([A-Za-z_][\w-]*)(?:[.[][^]*?)?: \S/.exec(message)?.[1];
    if (root === undefined || !(fields.has(root) || root === "body" || root === "content-type")) return `invalid_argument names no field: ${message.slice(0, 200)}`;
  }
  return null;
}

/**
 * The tables whose rows differ between two states, but for `throttles`:
 * failed sign-ins and refreshes are counted there, by design (DESIGN.md,
 * sign-in throttling), and that is the one write a refusal makes.
 */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((name) => name !== "throttles" && before[name] !== after[name]).sort();
}

/** Fails after `ms`: a hang is a failure, not a stuck suite. */
export function withinMs<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
