import { describe, expect, it } from "vitest";
import { AgeBand, Code, s256Challenge } from "@playfield/core";
import { createScryptHasher, FAST_TEST_COST, type PasswordHasher } from "@playfield/server";
import { expectError, testServer, TRANSPORTS } from "./fixtures.js";

const adult = { password: "correct horse battery", birthdate: "1990-05-17" };
const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const origin = "http://localhost:5173";

/** The tests' scrypt hasher, counting password checks and holding each until `held` resolves, so that attempts overlap. */
function countingHasher(held: Promise<unknown>): PasswordHasher & { checks: number } {
  const scrypt = createScryptHasher({ cost: FAST_TEST_COST });
  const hasher = {
    checks: 0,
    hash: (password: string) => scrypt.hash(password),
    async verify(password: string, encoded: string) {
      hasher.checks += 1;
      await held;
      return scrypt.verify(password, encoded);
    },
  };
  return hasher;
}

describe.each(TRANSPORTS)("IdentityService (%s)", (kind) => {
  describe("signUp", () => {
    it("should create an account, sign it in and keep its tokens in the client", async () => {
      await using t = await testServer(kind);
      const client = t.client();
      const auth = await client.identity.signUp({ username: "Ada_99", displayName: "Ada", ...adult });
      expect(auth.me.user.username).toBe("Ada_99");
      expect(auth.me.user.displayName).toBe("Ada");
      expect(auth.me.ageBand).toBe(AgeBand.Adult);
      expect(auth.me.guest).toBe(false);
      expect(auth.expiresInSeconds).toBe(900);
      expect(auth.accessToken.split(".")).toHaveLength(3);
      const me = await client.identity.getMe();
      expect(me.user.id).toBe(auth.me.user.id);
    });

    it("should refuse a username taken in any case with already_exists", async () => {
      await using t = await testServer(kind);
      await t.client().identity.signUp({ username: "Ada_99", ...adult });
      await expectError(t.client().identity.signUp({ username: "ada_99", ...adult }), Code.AlreadyExists, /^username: /);
    });

    it("should name the field and the rule of every bad value", async () => {
      await using t = await testServer(kind);
      const c = t.client();
      await expectError(c.identity.signUp({ ...adult, username: "_ada" }), Code.InvalidArgument, /^username: 3 to 20/);
      await expectError(c.identity.signUp({ ...adult, username: "ab" }), Code.InvalidArgument, /^username: /);
      await expectError(c.identity.signUp({ ...adult, username: "ada", password: "short" }), Code.InvalidArgument, /^password: 8 to 200/);
      await expectError(c.identity.signUp({ ...adult, username: "ada_lovelace", password: "ADA_LOVELACE" }), Code.InvalidArgument, /^password: must not be the username/);
      await expectError(c.identity.signUp({ ...adult, username: "ada", birthdate: "1990-02-30" }), Code.InvalidArgument, /^birthdate: /);
      await expectError(c.identity.signUp({ ...adult, username: "ada", birthdate: "2999-01-01" }), Code.InvalidArgument, /^birthdate: must not be in the future/);
      await expectError(c.identity.signUp({ username: "ada", password: adult.password }), Code.InvalidArgument, /^birthdate: /);
    });

    it("should give an under-13 account the child age band and child-safe settings", async () => {
      await using t = await testServer(kind);
      const c = t.client();
      const year = new Date(t.server.clock.now()).getUTCFullYear() - 9;
      const auth = await c.identity.signUp({ ...adult, username: "kid_one", birthdate: `${year}-01-01` });
      expect(auth.me.ageBand).toBe(AgeBand.Under13);
      const settings = await c.identity.getSettings();
      expect(settings.whoCanMessage).toBe("friends");
      await expectError(c.identity.updateSettings({ whoCanMessage: "everyone" }), Code.InvalidArgument, /^whoCanMessage: /);
    });
  });

  describe("signIn", () => {
    it("should sign in with the right password, in any case of the username", async () => {
      await using t = await testServer(kind);
      const created = await t.client().identity.signUp({ username: "Ada_99", ...adult });
      const auth = await t.client().identity.signIn({ username: "ADA_99", password: adult.password });
      expect(auth.me.user.id).toBe(created.me.user.id);
    });

    it("should answer the same unauthenticated error for a wrong password and an unknown user", async () => {
      await using t = await testServer(kind);
      await t.client().identity.signUp({ username: "Ada_99", ...adult });
      const wrong = await expectError(t.client().identity.signIn({ username: "Ada_99", password: "nope nope nope" }), Code.Unauthenticated);
      const unknown = await expectError(t.client().identity.signIn({ username: "nobody_here", password: "nope nope nope" }), Code.Unauthenticated);
      expect(wrong.rawMessage).toBe(unknown.rawMessage);
    });

    it("should throttle repeated failures with resource_exhausted until the window passes", async () => {
      await using t = await testServer(kind);
      await t.client().identity.signUp({ username: "Ada_99", ...adult });
      const c = t.client();
      for (let i = 0; i < 5; i++) await expectError(c.identity.signIn({ username: "Ada_99", password: "wrong password" }), Code.Unauthenticated);
      // Even the right password is refused while throttled: guessing gains nothing.
      await expectError(c.identity.signIn({ username: "Ada_99", ...adult }), Code.ResourceExhausted, /try again in \d+ s/);
      t.server.clock.advance(15 * 60_000);
      await expect(c.identity.signIn({ username: "Ada_99", password: adult.password })).resolves.toBeTruthy();
    });

    it("should check exactly the limit's worth of wrong passwords sent at once, and refuse the rest as throttled", async () => {
      const hasher = countingHasher(new Promise((resolve) => setTimeout(resolve, 200)));
      await using t = await testServer(kind, { hasher, signInThrottle: { perUsernameAndAddress: { limit: 3, windowMs: 60_000 } } });
      await t.client().identity.signUp({ username: "Ada_99", ...adult });
      const attempts = await Promise.allSettled(Array.from({ length: 8 }, () => t.client().identity.signIn({ username: "Ada_99", password: "wrong password" })));
      const codes = attempts.map((a) => (a.status === "rejected" ? (a.reason as { code: string }).code : "signed in"));
      expect(codes.filter((code) => code === Code.Unauthenticated)).toHaveLength(3);
      expect(codes.filter((code) => code === Code.ResourceExhausted)).toHaveLength(5);
      expect(hasher.checks).toBe(3);
    });

    it("should count attempts in flight against the limit, and take back a successful one's", async () => {
      let release!: () => void;
      const hasher = countingHasher(new Promise<void>((resolve) => { release = resolve; }));
      await using t = await testServer(kind, { hasher, signInThrottle: { perUsernameAndAddress: { limit: 2, windowMs: 60_000 } } });
      await t.client().identity.signUp({ username: "Ada_99", ...adult });
      // Two right passwords in flight fill the limit of 2 for as long as they are checked: a wrong one meanwhile is refused unchecked.
      const right = [0, 1].map(() => t.client().identity.signIn({ username: "Ada_99", ...adult }));
      await expect.poll(() => hasher.checks).toBe(2);
      await expectError(t.client().identity.signIn({ username: "Ada_99", password: "wrong password" }), Code.ResourceExhausted);
      release();
      for (const auth of await Promise.all(right)) expect(auth.accessToken).toBeTruthy();
      // Once they succeeded nothing of them is counted: the next two wrong passwords are checked.
      for (let i = 0; i < 2; i++) await expectError(t.client().identity.signIn({ username: "Ada_99", password: "wrong password" }), Code.Unauthenticated);
      await expectError(t.client().identity.signIn({ username: "Ada_99", ...adult }), Code.ResourceExhausted);
      expect(hasher.checks).toBe(4);
    });
  });

  describe("refresh", () => {
    it("should rotate the refresh token, and revoke the device when a rotated one comes back", async () => {
      await using t = await testServer(kind);
      const c = t.client();
      const first = await c.identity.signUp({ username: "Ada_99", ...adult });
      const second = await t.client().identity.refresh({ refreshToken: first.refreshToken });
      expect(second.refreshToken).not.toBe(first.refreshToken);
      expect(second.accessToken).not.toBe(first.accessToken);
      await expectError(t.client().identity.refresh({ refreshToken: first.refreshToken }), Code.Unauthenticated, /already used/);
      // The leak ends the device session: its newest tokens stop working too.
      await expectError(t.client().identity.refresh({ refreshToken: second.refreshToken }), Code.Unauthenticated);
      await expectError(t.client().identity.getMe({}, { token: second.accessToken }), Code.Unauthenticated);
    });

    it("should refresh transparently when the access token expires", async () => {
      await using t = await testServer(kind);
      const c = t.client({ clock: t.server.clock });
      const auth = await c.identity.signUp({ username: "Ada_99", ...adult });
      t.server.clock.advance(16 * 60_000);
      await expectError(t.client().identity.getMe({}, { token: auth.accessToken }), Code.Unauthenticated);
      const me = await c.identity.getMe();
      expect(me.user.id).toBe(auth.me.user.id);
    });
  });

  describe("signOut", () => {
    it("should end the device session at once", async () => {
      await using t = await testServer(kind);
      const c = t.client();
      const auth = await c.identity.signUp({ username: "Ada_99", ...adult });
      await t.client().identity.signOut({ refreshToken: auth.refreshToken });
      await expectError(t.client().identity.getMe({}, { token: auth.accessToken }), Code.Unauthenticated, /signed out/);
      await expectError(t.client().identity.refresh({ refreshToken: auth.refreshToken }), Code.Unauthenticated);
    });
  });

  describe("guests", () => {
    it("should start a guest with child-safe limits, refused on account-only methods", async () => {
      await using t = await testServer(kind);
      const c = t.client();
      const auth = await c.identity.startGuest();
      expect(auth.me.guest).toBe(true);
      expect(auth.me.user.username).toMatch(/^Guest_\d+$/);
      expect(auth.me.ageBand).toBe(AgeBand.Under13);
      await expectError(c.identity.listDevices(), Code.PermissionDenied, /guests/);
      await expectError(c.identity.getSettings(), Code.PermissionDenied);
    });

    it("should upgrade a guest in place, keeping its id", async () => {
      await using t = await testServer(kind);
      const c = t.client();
      const guest = await c.identity.startGuest();
      const upgraded = await c.identity.upgradeGuest({ username: "Ada_99", ...adult });
      expect(upgraded.me.user.id).toBe(guest.me.user.id);
      expect(upgraded.me.guest).toBe(false);
      expect((await c.identity.listDevices()).devices).toHaveLength(1);
      await expectError(c.identity.upgradeGuest({ username: "Ada_100", ...adult }), Code.FailedPrecondition);
      await expectError(t.client().identity.getMe({}, { token: guest.accessToken }), Code.Unauthenticated);
    });
  });

  describe("changePassword", () => {
    it("should sign out other devices and give this one fresh tokens", async () => {
      await using t = await testServer(kind);
      const phone = t.client({ clientName: "Phone" });
      const laptop = t.client({ clientName: "Laptop" });
      const first = await phone.identity.signUp({ username: "Ada_99", ...adult });
      await laptop.identity.signIn({ username: "Ada_99", password: adult.password });
      await expectError(phone.identity.changePassword({ currentPassword: "wrong password", newPassword: "another good one" }), Code.PermissionDenied, /^currentPassword: /);
      await expectError(phone.identity.changePassword({ currentPassword: adult.password, newPassword: "ada_99" }), Code.InvalidArgument, /^newPassword: /);
      const { auth } = await phone.identity.changePassword({ currentPassword: adult.password, newPassword: "another good one" });
      expect(auth.accessToken).not.toBe(first.accessToken);
      await expect(phone.identity.getMe()).resolves.toBeTruthy();
      await expectError(laptop.identity.getMe(), Code.Unauthenticated);
      await expectError(t.client().identity.getMe({}, { token: first.accessToken }), Code.Unauthenticated);
      await expectError(t.client().identity.signIn({ username: "Ada_99", password: adult.password }), Code.Unauthenticated);
      await expect(t.client().identity.signIn({ username: "Ada_99", password: "another good one" })).resolves.toBeTruthy();
    });
  });

  describe("changeUsername", () => {
    it("should need the password and a free name", async () => {
      await using t = await testServer(kind);
      const c = t.client();
      await t.client().identity.signUp({ username: "Taken_1", ...adult });
      await c.identity.signUp({ username: "Ada_99", ...adult });
      await expectError(c.identity.changeUsername({ newUsername: "Ada_100", password: "wrong password" }), Code.PermissionDenied);
      await expectError(c.identity.changeUsername({ newUsername: "taken_1", password: adult.password }), Code.AlreadyExists);
      expect((await c.identity.changeUsername({ newUsername: "ADA_99", password: adult.password })).user.username).toBe("ADA_99");
      expect((await c.identity.changeUsername({ newUsername: "Lovelace", password: adult.password })).user.username).toBe("Lovelace");
      await expect(t.client().identity.signIn({ username: "lovelace", password: adult.password })).resolves.toBeTruthy();
    });
  });

  describe("devices", () => {
    it("should list devices labelled from x-svc-client, mark the current one, and revoke one", async () => {
      await using t = await testServer(kind);
      const phone = t.client({ clientName: "iOS 18 app" });
      const web = t.client({ clientName: "Firefox on Linux" });
      await phone.identity.signUp({ username: "Ada_99", ...adult });
      await web.identity.signIn({ username: "Ada_99", password: adult.password });
      const { devices } = await web.identity.listDevices();
      expect(devices.map((d) => d.label).sort()).toEqual(["Firefox on Linux", "iOS 18 app"]);
      expect(devices.find((d) => d.current)?.label).toBe("Firefox on Linux");
      const phoneDevice = devices.find((d) => d.label === "iOS 18 app")!;
      await web.identity.revokeDevice({ deviceId: phoneDevice.id });
      await expectError(phone.identity.getMe(), Code.Unauthenticated);
      await expectError(web.identity.revokeDevice({ deviceId: phoneDevice.id }), Code.NotFound);
    });

    it("should not reveal or revoke another account's device", async () => {
      await using t = await testServer(kind);
      const a = t.client();
      const b = t.client();
      await a.identity.signUp({ username: "Ada_99", ...adult });
      await b.identity.signUp({ username: "Bob_99", ...adult });
      const [bDevice] = (await b.identity.listDevices()).devices;
      await expectError(a.identity.revokeDevice({ deviceId: bDevice!.id }), Code.NotFound);
      await expect(b.identity.getMe()).resolves.toBeTruthy();
    });

    it("should sign out everywhere", async () => {
      await using t = await testServer(kind);
      const a = t.client();
      const b = t.client();
      await a.identity.signUp({ username: "Ada_99", ...adult });
      await b.identity.signIn({ username: "Ada_99", password: adult.password });
      await a.identity.signOutEverywhere();
      await expectError(b.identity.getMe(), Code.Unauthenticated);
      expect(await a.auth.isSignedIn()).toBe(false);
    });
  });

  describe("settings", () => {
    it("should read defaults, change only what is given, and check allowed values", async () => {
      await using t = await testServer(kind);
      const c = t.client();
      await c.identity.signUp({ username: "Ada_99", ...adult });
      const before = await c.identity.getSettings();
      expect(before).toMatchObject({ whoCanMessage: "everyone", whoCanFriend: "everyone", showOnlineStatus: true });
      const after = await c.identity.updateSettings({ whoCanFriend: "nobody", showOnlineStatus: false });
      expect(after).toMatchObject({ whoCanMessage: "everyone", whoCanFriend: "nobody", showOnlineStatus: false });
      await expectError(c.identity.updateSettings({ whoCanJoin: "anyone" }), Code.InvalidArgument, /^whoCanJoin: one of everyone, friends, nobody/);
      expect(await c.identity.getSettings()).toEqual(after);
    });
  });

  describe("deleteAccount", () => {
    it("should need the password, then end every token and sign-in at once", async () => {
      await using t = await testServer(kind);
      const c = t.client();
      const auth = await c.identity.signUp({ username: "Ada_99", ...adult });
      await expectError(c.identity.deleteAccount({ password: "wrong password" }), Code.PermissionDenied);
      await c.identity.deleteAccount({ password: adult.password });
      await expectError(t.client().identity.getMe({}, { token: auth.accessToken }), Code.Unauthenticated);
      await expectError(t.client().identity.signIn({ username: "Ada_99", password: adult.password }), Code.Unauthenticated);
    });
  });

  describe("issueScopedToken", () => {
    it("should reach only its scope's methods", async () => {
      await using t = await testServer(kind);
      const c = t.client();
      await c.identity.signUp({ username: "Ada_99", ...adult });
      const studio = await c.identity.issueScopedToken({ scope: "studio" });
      expect(studio.expiresIn).toBe(600);
      expect((await c.identity.getMe({}, { token: studio.token })).user.username).toBe("Ada_99");
      await expectError(c.identity.listDevices({}, { token: studio.token }), Code.PermissionDenied, /studio/);
      const avatar = await c.identity.issueScopedToken({ scope: "avatar" });
      await expectError(c.identity.getMe({}, { token: avatar.token }), Code.PermissionDenied, /avatar/);
      await expectError(c.identity.issueScopedToken({ scope: "admin" }), Code.InvalidArgument, /^scope: /);
    });

    it("should stop working when its device signs out", async () => {
      await using t = await testServer(kind);
      const c = t.client();
      await c.identity.signUp({ username: "Ada_99", ...adult });
      const studio = await c.identity.issueScopedToken({ scope: "studio" });
      await c.identity.signOutEverywhere();
      await expectError(t.client().identity.getMe({}, { token: studio.token }), Code.Unauthenticated);
    });
  });

  describe("handoff", () => {
    const challenge = s256Challenge(verifier);

    it("should sign in on the target origin with the verifier, once", async () => {
      await using t = await testServer(kind);
      const main = t.client();
      const created = await main.identity.signUp({ username: "Ada_99", ...adult });
      const { code, expiresIn } = await main.identity.createHandoff({ targetOrigin: origin, codeChallenge: challenge });
      expect(expiresIn).toBe(60);
      const studio = t.client({ clientName: "Studio web" });
      const auth = await studio.identity.redeemHandoff({ code, codeVerifier: verifier }, { headers: { origin } });
      expect(auth.me.user.id).toBe(created.me.user.id);
      expect((await studio.identity.listDevices()).devices.find((d) => d.current)?.label).toBe("Studio web");
      await expectError(t.client().identity.redeemHandoff({ code, codeVerifier: verifier }, { headers: { origin } }), Code.NotFound);
    });

    it("should spend the code even when redeeming fails", async () => {
      await using t = await testServer(kind);
      const main = t.client();
      await main.identity.signUp({ username: "Ada_99", ...adult });
      const failures: [Record<string, string>, string, Code][] = [
        [{ origin: "http://localhost:9999" }, verifier, Code.PermissionDenied],
        [{}, verifier, Code.PermissionDenied],
        [{ origin }, verifier.replace("d", "e"), Code.PermissionDenied],
        [{ origin }, "too-short", Code.InvalidArgument],
        [{ origin }, "x".repeat(129), Code.InvalidArgument],
      ];
      for (const [headers, codeVerifier, expected] of failures) {
        const { code } = await main.identity.createHandoff({ targetOrigin: origin, codeChallenge: challenge });
        await expectError(t.client().identity.redeemHandoff({ code, codeVerifier }, { headers }), expected);
        await expectError(t.client().identity.redeemHandoff({ code, codeVerifier: verifier }, { headers: { origin } }), Code.NotFound);
      }
    });

    it("should expire after 60 seconds", async () => {
      await using t = await testServer(kind);
      const main = t.client();
      await main.identity.signUp({ username: "Ada_99", ...adult });
      const { code } = await main.identity.createHandoff({ targetOrigin: origin, codeChallenge: challenge });
      t.server.clock.advance(61_000);
      await expectError(t.client().identity.redeemHandoff({ code, codeVerifier: verifier }, { headers: { origin } }), Code.NotFound);
    });

    it("should allow only configured origins, and loopback outside production", async () => {
      await using t = await testServer(kind, { webOrigins: ["https://studio.example.com"] });
      const main = t.client();
      await main.identity.signUp({ username: "Ada_99", ...adult });
      await expect(main.identity.createHandoff({ targetOrigin: "https://studio.example.com", codeChallenge: challenge })).resolves.toBeTruthy();
      await expectError(main.identity.createHandoff({ targetOrigin: "https://evil.example.com", codeChallenge: challenge }), Code.InvalidArgument, /^targetOrigin: /);
      await expectError(main.identity.createHandoff({ targetOrigin: "http://localhost:5173/path", codeChallenge: challenge }), Code.InvalidArgument);
      await expectError(main.identity.createHandoff({ targetOrigin: origin, codeChallenge: "short" }), Code.InvalidArgument, /^codeChallenge: 43/);
    });
  });
});

describe("handoff in production", () => {
  it("should refuse loopback origins", async () => {
    await using t = await testServer("in-process", { environment: "production" });
    const c = t.client();
    await c.identity.signUp({ username: "Ada_99", ...adult });
    await expectError(c.identity.createHandoff({ targetOrigin: origin, codeChallenge: s256Challenge(verifier) }), Code.InvalidArgument);
  });
});
