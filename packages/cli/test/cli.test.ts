import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseServerArgs, UsageError } from "../src/server-args.js";
import { runServer, startServerProcess } from "./server-process.js";

describe("playfield-server's arguments", () => {
  it("should read PORT and HOST as defaults, and the options over them", () => {
    expect(parseServerArgs([], {})).toEqual({ help: false, command: { kind: "serve" }, port: 8080, host: "127.0.0.1", publicUrl: null, accountCreationLimit: null, environment: "production", webOrigins: [], trustedProxies: [], demo: false, storage: { kind: "memory" }, redis: null, shutdownTimeoutMs: 10_000, adminPort: 8081, adminHost: "127.0.0.1", logLevel: "info" });
    expect(parseServerArgs([], { PORT: "9000", HOST: "0.0.0.0", PLAYFIELD_PUBLIC_URL: "https://play.example" })).toMatchObject({ port: 9000, host: "0.0.0.0" });
    expect(parseServerArgs(["--shutdown-timeout", "2.5"], {}).shutdownTimeoutMs).toBe(2_500);
    expect(parseServerArgs(["--trusted-proxy", "10.0.0.2", "--trusted-proxy", "fd00::1"], {}).trustedProxies).toEqual(["10.0.0.2", "fd00::1"]);
    expect(parseServerArgs(["--port", "0", "--web-origin", "https://game.example", "--web-origin", "http://localhost:3000", "--demo"], { PORT: "9000" }))
      .toEqual({ help: false, command: { kind: "serve" }, port: 0, host: "127.0.0.1", publicUrl: null, accountCreationLimit: null, environment: "development", webOrigins: ["https://game.example", "http://localhost:3000"], trustedProxies: [], demo: true, storage: { kind: "memory" }, redis: null, shutdownTimeoutMs: 10_000, adminPort: 0, adminHost: "127.0.0.1", logLevel: "info" });
  });

  it("should run in production unless --dev, --demo or PLAYFIELD_ENV say otherwise", () => {
    expect(parseServerArgs([], {}).environment).toBe("production");
    expect(parseServerArgs(["--dev"], {}).environment).toBe("development");
    expect(parseServerArgs(["--demo"], { PLAYFIELD_ENV: "production" }).environment).toBe("development");
    expect(parseServerArgs([], { PLAYFIELD_ENV: "test" }).environment).toBe("test");
    expect(parseServerArgs([], { PLAYFIELD_ENV: "" }).environment).toBe("production");
    expect(() => parseServerArgs([], { PLAYFIELD_ENV: "prod" })).toThrow('PLAYFIELD_ENV must be production, development or test, got "prod"');
  });

  it("should take the public URL from --public-url or PLAYFIELD_PUBLIC_URL, an http(s) URL with no query", () => {
    expect(parseServerArgs(["--public-url", "https://play.example/"], {}).publicUrl).toBe("https://play.example");
    expect(parseServerArgs([], { PLAYFIELD_PUBLIC_URL: "https://play.example/game" }).publicUrl).toBe("https://play.example/game");
    expect(parseServerArgs(["--public-url", "http://a.example"], { PLAYFIELD_PUBLIC_URL: "https://b.example" }).publicUrl).toBe("http://a.example");
    for (const bad of ["ftp://play.example", "https://play.example/?x=1", "play.example", "https://u:p@play.example"]) {
      expect(() => parseServerArgs(["--public-url", bad], {})).toThrow(/^--public-url must be an http:\/\/ or https:\/\/ URL with no query/);
    }
  });

  it("should take the accounts per address per hour from --account-creation-limit or PLAYFIELD_ACCOUNT_CREATION_LIMIT, 0 for none", () => {
    expect(parseServerArgs(["--account-creation-limit", "0"], {}).accountCreationLimit).toBe(0);
    expect(parseServerArgs([], { PLAYFIELD_ACCOUNT_CREATION_LIMIT: "500" }).accountCreationLimit).toBe(500);
    expect(parseServerArgs(["--account-creation-limit", "7"], { PLAYFIELD_ACCOUNT_CREATION_LIMIT: "500" }).accountCreationLimit).toBe(7);
    for (const bad of ["1.5", "lots", "", "+3"]) {
      expect(() => parseServerArgs(["--account-creation-limit", bad], {})).toThrow(/^--account-creation-limit must be a whole number of accounts per address per hour/);
    }
  });

  it("should say when npm took a flag for itself (npm start --port 9000, without --)", () => {
    const npm = { npm_lifecycle_event: "start", npm_config_port: "true" };
    expect(() => parseServerArgs(["9000"], npm)).toThrow(/npm took --port 9000 as its own setting: put -- before the server's options, as in npm start -- --port 9000$/);
    expect(() => parseServerArgs(["9000"], {})).toThrow(/^Unexpected argument '9000'\. This command does not take positional arguments$/);
  });

  it("should keep the data in memory, a data folder, or on PostgreSQL (the flag over DATABASE_URL)", () => {
    const url = "postgres://postgres@127.0.0.1:5432/test";
    expect(parseServerArgs(["--data-dir", "./data"], { DATABASE_URL: url }).storage).toEqual({ kind: "data-dir", dataDir: "./data" });
    expect(parseServerArgs([], { DATABASE_URL: url }).storage).toEqual({ kind: "postgres", url, schema: "public" });
    expect(parseServerArgs(["--database-url", url, "--database-schema", "game"], {}).storage).toEqual({ kind: "postgres", url, schema: "game" });
    expect(parseServerArgs([], { DATABASE_URL: "" }).storage).toEqual({ kind: "memory" });
  });

  it("should keep statements prepared unless --database-prepare (or DATABASE_PREPARE, with a PostgreSQL server only) is off", () => {
    const url = "postgres://app@pooler:6432/game";
    expect(parseServerArgs(["--database-url", url], {}).storage).toEqual({ kind: "postgres", url, schema: "public" });
    expect(parseServerArgs(["--database-url", url, "--database-prepare", "off"], {}).storage).toEqual({ kind: "postgres", url, schema: "public", prepare: false });
    expect(parseServerArgs([], { DATABASE_URL: url, DATABASE_PREPARE: "off" }).storage).toMatchObject({ prepare: false });
    expect(parseServerArgs(["--database-prepare", "on"], { DATABASE_URL: url, DATABASE_PREPARE: "off" }).storage).not.toHaveProperty("prepare");
    // Without a PostgreSQL server the variable is not read; the flag is refused.
    expect(parseServerArgs([], { DATABASE_PREPARE: "off" }).storage).toEqual({ kind: "memory" });
  });

  it("should size the pool by --database-pool-size (or DATABASE_POOL_SIZE, with a PostgreSQL server only), node-postgres' 10 without either", () => {
    const url = "postgres://app@db:5432/game";
    expect(parseServerArgs(["--database-url", url, "--database-pool-size", "4"], {}).storage).toEqual({ kind: "postgres", url, schema: "public", poolSize: 4 });
    expect(parseServerArgs([], { DATABASE_URL: url, DATABASE_POOL_SIZE: "25" }).storage).toMatchObject({ poolSize: 25 });
    expect(parseServerArgs(["--database-pool-size", "1"], { DATABASE_URL: url, DATABASE_POOL_SIZE: "25" }).storage).toMatchObject({ poolSize: 1 });
    expect(parseServerArgs([], { DATABASE_URL: url, DATABASE_POOL_SIZE: "" }).storage).not.toHaveProperty("poolSize");
    // Without a PostgreSQL server the variable is not read; the flag is refused.
    expect(parseServerArgs([], { DATABASE_POOL_SIZE: "4" }).storage).toEqual({ kind: "memory" });
  });

  it("should listen for notices through --database-listen-url (or DATABASE_LISTEN_URL, with a PostgreSQL server only)", () => {
    const url = "postgres://app@pgbouncer:6432/game";
    const direct = "postgres://app@db:5432/game";
    expect(parseServerArgs(["--database-url", url, "--database-listen-url", direct], {}).storage).toEqual({ kind: "postgres", url, schema: "public", listenUrl: direct });
    expect(parseServerArgs([], { DATABASE_URL: url, DATABASE_LISTEN_URL: direct }).storage).toEqual({ kind: "postgres", url, schema: "public", listenUrl: direct });
    expect(parseServerArgs(["--database-listen-url", "postgres://other@db/game"], { DATABASE_URL: url, DATABASE_LISTEN_URL: direct }).storage)
      .toMatchObject({ listenUrl: "postgres://other@db/game" });
    // Without a PostgreSQL server the variable means nothing (as REDIS_URL), so an exported one never stops `npm start`.
    expect(parseServerArgs([], { DATABASE_LISTEN_URL: direct }).storage).toEqual({ kind: "memory" });
  });

  it("should export or import a world with a storage to read or fill", () => {
    const url = "postgres://postgres@127.0.0.1:5432/test";
    expect(parseServerArgs(["export", "world.jsonl", "--data-dir", "./data"], {})).toMatchObject({ command: { kind: "export", file: "world.jsonl" }, storage: { kind: "data-dir", dataDir: "./data" } });
    expect(parseServerArgs(["import", "--database-schema", "copy", "world.jsonl"], { DATABASE_URL: url }))
      .toMatchObject({ command: { kind: "import", file: "world.jsonl" }, storage: { kind: "postgres", url, schema: "copy" } });
  });

  it("should share realtime through Redis only beside PostgreSQL (the flag over REDIS_URL, which alone never stops a server in memory)", () => {
    const database = "postgres://postgres@127.0.0.1:5432/test";
    const redis = "redis://127.0.0.1:6379";
    expect(parseServerArgs(["--database-url", database, "--redis-url", redis], {}).redis).toEqual({ url: redis, keyPrefix: "playfield:" });
    expect(parseServerArgs(["--redis-url", "rediss://:pw@r.example:6380", "--redis-prefix", "game-a:"], { DATABASE_URL: database }).redis)
      .toEqual({ url: "rediss://:pw@r.example:6380", keyPrefix: "game-a:" });
    expect(parseServerArgs([], { DATABASE_URL: database, REDIS_URL: redis }).redis).toEqual({ url: redis, keyPrefix: "playfield:" });
    expect(parseServerArgs([], { DATABASE_URL: database }).redis).toBeNull();
    expect(parseServerArgs([], { REDIS_URL: redis }).redis).toBeNull();
    expect(parseServerArgs(["--data-dir", "./data"], { REDIS_URL: redis }).redis).toBeNull();
  });

  it("should put the admin listener beside the public port unless told, and log at info unless told", () => {
    const admin = (argv: string[], env = {}) => { const a = parseServerArgs(argv, env); return [a.adminPort, a.adminHost, a.logLevel]; };
    expect(admin(["--port", "9000"])).toEqual([9001, "127.0.0.1", "info"]);
    expect(admin(["--port", "0"])).toEqual([0, "127.0.0.1", "info"]);
    expect(admin(["--port", "65535"])).toEqual([65534, "127.0.0.1", "info"]);
    expect(admin(["--admin-port", "9100", "--admin-host", "0.0.0.0", "--log-level", "debug"])).toEqual([9100, "0.0.0.0", "debug"]);
    expect(admin([], { PLAYFIELD_ADMIN_PORT: "off", PLAYFIELD_ADMIN_HOST: "10.0.0.5", PLAYFIELD_LOG_LEVEL: "warn" })).toEqual([null, "10.0.0.5", "warn"]);
    expect(admin(["--admin-port", "9100", "--log-level", "error"], { PLAYFIELD_ADMIN_PORT: "off", PLAYFIELD_LOG_LEVEL: "warn" })).toEqual([9100, "127.0.0.1", "error"]);
  });

  it("should refuse what it does not know, and bad values, naming them", () => {
    const refusal = (argv: string[], env = {}) => {
      try {
        parseServerArgs(argv, env);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      return "accepted";
    };
    expect(refusal(["--bogus"])).toBe("Unknown option '--bogus'");
    expect(refusal(["serve"])).toMatch(/^Unexpected argument 'serve'/);
    expect(refusal(["--port"])).toMatch(/--port/);
    expect(refusal(["--port", "65536"])).toBe('--port must be a port from 0 to 65535, got "65536"');
    expect(refusal([], { PORT: "http" })).toBe('PORT must be a port from 0 to 65535, got "http"');
    expect(refusal(["--web-origin", "https://game.example/"])).toMatch(/^--web-origin must be an origin/);
    expect(refusal(["--host", ""])).toBe("--host needs an address");
    expect(refusal(["--admin-port", "on"])).toBe('--admin-port must be a port from 0 to 65535, or off, got "on"');
    expect(refusal([], { PLAYFIELD_ADMIN_PORT: "70000" })).toBe('PLAYFIELD_ADMIN_PORT must be a port from 0 to 65535, or off, got "70000"');
    expect(refusal(["--port", "9000", "--admin-port", "9000"])).toBe("--admin-port must differ from --port (9000): the admin listener never shares the public port");
    expect(refusal(["--admin-host", ""])).toBe("--admin-host needs an address");
    expect(refusal(["--log-level", "verbose"])).toBe('--log-level must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"');
    expect(refusal(["--trusted-proxy", "lb.internal"])).toBe('--trusted-proxy must be an IP address (the proxy\'s, as the server sees its connections), got "lb.internal"');
    expect(refusal(["--data-dir", "d", "--database-url", "postgres://h/db"])).toMatch(/^--data-dir and --database-url cannot be used together/);
    expect(refusal(["--database-url", "mysql://u:secret@h/db"])).toBe('--database-url must be a postgres:// or postgresql:// URL, got "mysql://u:***@h/db"');
    expect(refusal(["--database-schema", "x"])).toMatch(/^--database-schema needs a PostgreSQL server/);
    expect(refusal(["--database-listen-url", "postgres://db/game"])).toMatch(/^--database-listen-url goes with a PostgreSQL server/);
    expect(refusal(["--data-dir", "d", "--database-prepare", "off"])).toMatch(/^--database-prepare goes with a PostgreSQL server/);
    expect(refusal(["--database-url", "postgres://h/db", "--database-prepare", "no"])).toBe('--database-prepare must be on or off, got "no"');
    expect(refusal(["--data-dir", "d", "--database-pool-size", "4"])).toMatch(/^--database-pool-size goes with a PostgreSQL server/);
    expect(refusal(["--database-url", "postgres://h/db", "--database-pool-size", "0"])).toBe('--database-pool-size must be a whole number of 1 or more, got "0"');
    expect(refusal(["--database-url", "postgres://h/db", "--database-pool-size", "2.5"])).toBe('--database-pool-size must be a whole number of 1 or more, got "2.5"');
    expect(refusal(["--database-url", "postgres://h/db"], { DATABASE_POOL_SIZE: "ten" })).toBe('DATABASE_POOL_SIZE must be a whole number of 1 or more, got "ten"');
    expect(refusal(["--data-dir", "d", "--database-listen-url", "postgres://db/game"])).toMatch(/^--database-listen-url goes with a PostgreSQL server/);
    expect(refusal(["--database-url", "postgres://h/db", "--database-listen-url", "http://u:pw@db/game"])).toBe('--database-listen-url must be a postgres:// or postgresql:// URL, got "http://u:***@db/game"');
    expect(refusal(["--database-url", "postgres://h/db"], { DATABASE_LISTEN_URL: "nope" })).toBe('DATABASE_LISTEN_URL must be a postgres:// or postgresql:// URL, got "nope"');
    expect(refusal(["--database-url", "postgres://h/db", "--database-schema", "Bad-Name"])).toMatch(/^--database-schema must be a lowercase SQL name/);
    expect(refusal(["export", "--data-dir", "d"])).toBe("export needs one FILE, such as: playfield-server export world.jsonl --data-dir ./data");
    expect(refusal(["import", "a.jsonl", "b.jsonl", "--data-dir", "d"])).toMatch(/^import needs one FILE/);
    expect(refusal(["export", "world.jsonl"])).toBe("export needs --data-dir or --database-url (or DATABASE_URL): a server in memory keeps nothing once it stops");
    expect(refusal(["import", "world.jsonl", "--data-dir", "d", "--port", "80"])).toBe("--port is an option of the server, not of import");
    expect(refusal(["import", "world.jsonl", "--database-url", "postgres://h/db", "--redis-url", "redis://r"])).toBe("--redis-url is an option of the server, not of import");
    expect(refusal(["--redis-url", "redis://127.0.0.1:6379"])).toMatch(/^--redis-url shares realtime events and presence between server processes on one PostgreSQL server: give --database-url/);
    expect(refusal(["--database-url", "postgres://h/db", "--redis-url", "http://:secret@r:6379"])).toBe('--redis-url must be a redis:// or rediss:// URL, got "http://:***@r:6379"');
    expect(refusal([], { DATABASE_URL: "postgres://h/db", REDIS_URL: "r:6379" })).toMatch(/^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(refusal(["--database-url", "postgres://h/db", "--redis-prefix", "p:"])).toBe("--redis-prefix goes with --redis-url (or REDIS_URL)");
    expect(refusal(["--database-url", "postgres://h/db", "--redis-url", "redis://r", "--redis-prefix", "a b"])).toMatch(/^--redis-prefix must be 1 to 64/);
    expect(refusal(["--shutdown-timeout", "10s"])).toBe('--shutdown-timeout must be a number of seconds from 0 to 3600, got "10s"');
  });
});

describe("playfield-server (the command behind npm start)", () => {
  it("should print its usage with --help, and refuse an unknown option with exit 2", async () => {
    const help = await runServer(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: playfield-server \[options\]/);
    const bogus = await runServer(["--bogus"]);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toBe("playfield-server: Unknown option '--bogus'\nRun playfield-server --help for the options.\n");
  }, 30_000);

  it("should print its URL, answer /healthz and API calls, and list the demo experiences", async () => {
    const server = await startServerProcess(["--demo"]);
    const { url } = server;
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const listed = await fetch(`${url}/svc.platform.v1.CatalogService/ListExperiences`, {
        method: "POST", headers: { "content-type": "application/json" }, body: '{"sort":"popular"}',
      });
      const { experiences } = (await listed.json()) as { experiences: { title: string }[] };
      expect(experiences.map((e) => e.title).sort()).toEqual(["Dune Racers", "Sky Islands", "Tower Tycoon"]);
    } finally {
      await server.stop();
    }
    expect((await server.exited).code).toBe(0);
  }, 30_000);

  it("should run bare as a production server that says so, pays no sandbox top-up and serves no admin page", async () => {
    const server = await startServerProcess([], { PLAYFIELD_ENV: "" });
    try {
      expect(server.lines[0]).toMatch(/^Playfield server \(production, in memory, pid \d+\) listening on /);
      const post = (path: string, body: object, token?: string) => fetch(`${server.url}/svc.platform.v1.${path}`, {
        method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body),
      });
      const { accessToken } = await (await post("IdentityService/SignUp", { username: "bare_one", password: "a long password", birthdate: "1990-01-01" })).json() as { accessToken: string };
      const topUp = await post("EconomyService/StartTopUp", { packId: "pack_400", method: "sandbox" }, accessToken);
      expect(await topUp.json()).toMatchObject({ code: "failed_precondition", message: expect.stringMatching(/^method: sandbox is not configured/) });
      expect((await fetch(`${server.url}/admin/reports`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("should limit the accounts one address creates per hour to --account-creation-limit", async () => {
    const server = await startServerProcess(["--account-creation-limit", "2"]);
    try {
      const guest = () => fetch(`${server.url}/svc.platform.v1.IdentityService/StartGuest`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect([(await guest()).status, (await guest()).status]).toEqual([200, 200]);
      expect(await (await guest()).json()).toMatchObject({ code: "resource_exhausted" });
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("should refuse to serve beyond loopback without a public URL, saying what to set, before opening the storage", async () => {
    // A data folder named but never made: the refusal comes before the storage opens.
    const dataDir = join(tmpdir(), `playfield-never-${process.pid}`);
    const { code, stderr } = await runServer(["--host", "0.0.0.0", "--data-dir", dataDir]);
    expect(existsSync(dataDir)).toBe(false);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^playfield-server: listening on 0\.0\.0\.0 serves beyond loopback: set the address players reach the server at \(--public-url or PLAYFIELD_PUBLIC_URL/);
  }, 30_000);

  it("should say which database it cannot reach and why, with no stack and no password", async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const { code, stderr } = await runServer(["--database-url", "postgres://postgres:secret@127.0.0.1:1/x"]);
    expect(code).toBe(1);
    expect(stderr).toBe("playfield-server: cannot open the storage (on PostgreSQL at postgres://postgres:***@127.0.0.1:1/x, schema public): connect ECONNREFUSED 127.0.0.1:1\n");
  }, 30_000);

  it("should say which port is taken and how to choose another, past the admin port another server would hold", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const { code, stderr } = await runServer([], { PORT: String(port) });
      expect(code).toBe(1);
      expect(stderr).toBe(`playfield-server: port ${port} on 127.0.0.1 is already in use (another playfield-server?). `
        + `Choose another with --port ${port + 2} or PORT=${port + 2}; --port 0 picks a free one.\n`);
    } finally {
      taken.close();
    }
  }, 30_000);
});
