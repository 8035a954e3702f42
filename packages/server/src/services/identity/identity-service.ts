import {
  AgeBand, ageBandOf, fail, mintClaims, parseBirthdate, passwordProblem, tables, TokenType, usernameKey, isValidVerifier, verifyS256,
  type IdentityService, type MethodRequest, type Tx, type UserRow,
} from "@playfield/core";
import type { HandlerContext } from "../../rpc/handler-context.js";
import type { ServiceImpl } from "../../rpc/router.js";
import { countAccountCreation } from "./account-creation.js";
import { countAttempt, recheckBudgets, settleSuccess, signInBudgets, verifyPassword } from "./password-attempts.js";
import {
  authResponse, defaultSettings, deviceLabel, iso, newUser, openDevice, saveUser, requireUser, revokeAllDevices, revokeDevice, toMe,
} from "./accounts.js";
import { isAllowedOrigin } from "./origins.js";
import { announcePresence } from "../presence/feed.js";

type SignUp = MethodRequest<typeof IdentityService.methods.signUp>;

/** The checks of a new account's fields that need more than its schema: a real, past birthdate; a password that is not the username. */
function checkNewAccount(req: SignUp, now: number): void {
  const birthdate = parseBirthdate(req.birthdate);
  if (!birthdate) throw fail.invalid("birthdate: a real date as YYYY-MM-DD");
  const today = new Date(now);
  const born = Date.UTC(birthdate.year, birthdate.month - 1, birthdate.day);
  if (born > now) throw fail.invalid("birthdate: must not be in the future");
  if (today.getUTCFullYear() - birthdate.year > 130) throw fail.invalid("birthdate: more than 130 years ago");
  const problem = passwordProblem(req.password, req.username);
  if (problem) throw fail.invalid(`password: ${problem}`);
}

async function usernameFree(tx: Tx, username: string, exceptUserId?: string): Promise<void> {
  const [taken] = await tx.query(tables.users, "byUsername", { equals: [usernameKey(username)], limit: 1 });
  if (taken && taken.id !== exceptUserId) throw fail.exists("username: already taken");
}

/**
 * Checks the password of a signed-in caller (ChangePassword, ChangeUsername, DeleteAccount), counted like a
 * sign-in to the account (password-attempts.ts): past the limit the call is refused unchecked. Answers the user row.
 */
async function recheckPassword(ctx: HandlerContext, password: string, field: string): Promise<UserRow> {
  const { deps } = ctx;
  const caller = ctx.user();
  const { user, attempt } = await deps.storage.transact(async (tx) => {
    const user = await requireUser(tx, caller.userId);
    const budgets = recheckBudgets(deps, user.id, user.username, ctx.clientAddress);
    return { user, attempt: await countAttempt(tx, budgets, deps.clock.now(), "wrong passwords") };
  });
  if (!(await verifyPassword(deps, password, user.passwordHash))) throw fail.denied(`${field}: wrong password`);
  await deps.storage.transact((tx) => settleSuccess(tx, attempt));
  return user;
}

/** IdentityService: accounts, sign-in, guests, devices, settings, scoped tokens, handoff. */
export const identityService: ServiceImpl<typeof IdentityService> = {
  async signUp(req, ctx) {
    const { deps } = ctx;
    checkNewAccount(req, deps.clock.now());
    return deps.hashing.admit(async () => {
      await countAccountCreation(deps, ctx.clientAddress);
      const passwordHash = await deps.hasher.hash(req.password);
      const { user, deviceId, refreshToken } = await deps.storage.transact(async (tx) => {
        await usernameFree(tx, req.username);
        const user = newUser(deps, { username: req.username, displayName: req.displayName, passwordHash, birthdate: req.birthdate });
        await saveUser(tx, user);
        const { device, refreshToken } = await openDevice(tx, deps, user.id, deviceLabel(ctx));
        return { user, deviceId: device.id, refreshToken };
      });
      return authResponse(deps, user, deviceId, refreshToken);
    });
  },

  async signIn(req, ctx) {
    const { deps } = ctx;
    const budgets = signInBudgets(deps, req.username, ctx.clientAddress);
    return deps.hashing.admit(async () => {
      const { found, attempt } = await deps.storage.transact(async (tx) => {
        const attempt = await countAttempt(tx, budgets, deps.clock.now(), "failed sign-ins");
        const [found] = await tx.query(tables.users, "byUsername", { equals: [usernameKey(req.username)], limit: 1 });
        return { found, attempt };
      });
      const user = found && found.deletedAt === null && !found.guest ? found : undefined;
      // An unknown name is checked against a dummy hash: it answers in the time of a wrong password, with the same message.
      const ok = await verifyPassword(deps, req.password, user?.passwordHash ?? null);
      if (!ok || !user) throw fail.unauthenticated("username or password is wrong");
      // Said only to whoever knows the password: a ban is no one else's business.
      if (user.ban) throw fail.denied("this account is banned");
      const rehashed = deps.hasher.needsRehash?.(user.passwordHash!) ? await deps.hasher.hash(req.password) : null;
      const { signedIn, deviceId, refreshToken } = await deps.storage.transact(async (tx) => {
        await settleSuccess(tx, attempt);
        let signedIn = user;
        if (rehashed) {
          // A hash of an older cost is replaced, unless the password changed since it was read.
          const current = await tx.get(tables.users, user.id);
          if (current?.passwordHash === user.passwordHash) await saveUser(tx, (signedIn = { ...current, passwordHash: rehashed }));
        }
        const { device, refreshToken } = await openDevice(tx, deps, user.id, deviceLabel(ctx));
        return { signedIn, deviceId: device.id, refreshToken };
      });
      return authResponse(deps, signedIn, deviceId, refreshToken);
    });
  },

  async refresh(req, ctx) {
    const { deps } = ctx;
    const outcome = await deps.storage.transact(async (tx) => {
      const now = deps.clock.now();
      const token = await tx.get(tables.refreshTokens, deps.hashSecret(req.refreshToken));
      if (!token) return { error: "refresh token is not valid" } as const;
      const device = await tx.get(tables.devices, token.deviceId);
      if (!device || device.revokedAt !== null) return { error: "this device was signed out" } as const;
      if (token.rotated) {
        // A rotated token presented again means it leaked: end the device session.
        await revokeDevice(tx, device, now);
        return { error: "refresh token was already used; the device is signed out" } as const;
      }
      if (device.expiresAt <= now) return { error: "refresh token expired" } as const;
      const user = await tx.get(tables.users, token.userId);
      if (!user || user.deletedAt !== null) return { error: "the account no longer exists" } as const;
      await tx.put(tables.refreshTokens, { ...token, rotated: true });
      const refreshToken = deps.ids.secret();
      await tx.put(tables.refreshTokens, { hash: deps.hashSecret(refreshToken), deviceId: device.id, userId: user.id, rotated: false });
      await tx.put(tables.devices, { ...device, lastUsedAt: now, expiresAt: now + deps.config.lifetimes.refresh * 1000 });
      return { user, deviceId: device.id, refreshToken } as const;
    });
    if ("error" in outcome) throw fail.unauthenticated(outcome.error as string);
    return authResponse(deps, outcome.user, outcome.deviceId, outcome.refreshToken);
  },

  async signOut(req, ctx) {
    const { deps } = ctx;
    await deps.storage.transact(async (tx) => {
      const token = await tx.get(tables.refreshTokens, deps.hashSecret(req.refreshToken));
      const device = token && (await tx.get(tables.devices, token.deviceId));
      // Signing out an unknown or already-ended session succeeds: the goal is reached.
      if (device) await revokeDevice(tx, device, deps.clock.now());
    });
    return {};
  },

  async getMe(_req, ctx) {
    // The row the auth check read live with the device: reading it again would only cost a round trip.
    return toMe(ctx.user().account, ctx.deps.clock.now());
  },

  async startGuest(_req, ctx) {
    const { deps } = ctx;
    await countAccountCreation(deps, ctx.clientAddress);
    const { user, deviceId, refreshToken } = await deps.storage.transact(async (tx) => {
      let username = "";
      for (let attempt = 0; attempt < 10 && !username; attempt++) {
        const candidate = `Guest_${deps.ids.digits(attempt < 5 ? 8 : 12)}`;
        const [taken] = await tx.query(tables.users, "byUsername", { equals: [usernameKey(candidate)], limit: 1 });
        if (!taken) username = candidate;
      }
      if (!username) throw fail.exhausted("no guest name is free: try again");
      const user = newUser(deps, { username, displayName: "", passwordHash: null, birthdate: null });
      await saveUser(tx, user);
      const { device, refreshToken } = await openDevice(tx, deps, user.id, deviceLabel(ctx));
      return { user, deviceId: device.id, refreshToken };
    });
    return authResponse(deps, user, deviceId, refreshToken);
  },

  async upgradeGuest(req, ctx) {
    const { deps } = ctx;
    const caller = ctx.user();
    if (!caller.guest) throw fail.precondition("already a full account");
    checkNewAccount(req, deps.clock.now());
    const passwordHash = await deps.hashing.admit(() => deps.hasher.hash(req.password));
    const { user, deviceId, refreshToken } = await deps.storage.transact(async (tx) => {
      const now = deps.clock.now();
      const guest = await requireUser(tx, caller.userId);
      if (!guest.guest) throw fail.precondition("already a full account");
      await usernameFree(tx, req.username, guest.id);
      // Same id: everything the guest owns stays theirs.
      const user: UserRow = {
        ...guest,
        username: req.username,
        usernameKey: usernameKey(req.username),
        displayName: req.displayName.trim(),
        passwordHash,
        birthdate: req.birthdate,
        guest: false,
        settings: defaultSettings(ageBandOf(req.birthdate, new Date(now))),
      };
      await saveUser(tx, user);
      const current = await tx.get(tables.devices, caller.deviceId);
      if (current) await revokeDevice(tx, current, now);
      const { device, refreshToken } = await openDevice(tx, deps, user.id, current?.label ?? deviceLabel(ctx));
      return { user, deviceId: device.id, refreshToken };
    });
    return authResponse(deps, user, deviceId, refreshToken);
  },

  async changePassword(req, ctx) {
    const { deps } = ctx;
    const caller = ctx.user();
    const passwordHash = await deps.hashing.admit(async () => {
      const before = await recheckPassword(ctx, req.currentPassword, "currentPassword");
      const problem = passwordProblem(req.newPassword, before.username);
      if (problem) throw fail.invalid(`newPassword: ${problem}`);
      return deps.hasher.hash(req.newPassword);
    });
    const { user, deviceId, refreshToken } = await deps.storage.transact(async (tx) => {
      const now = deps.clock.now();
      const user = { ...(await requireUser(tx, caller.userId)), passwordHash };
      await saveUser(tx, user);
      // Every device is signed out; this one continues under a new session so that its old tokens die too.
      const current = await tx.get(tables.devices, caller.deviceId);
      await revokeAllDevices(tx, user.id, now);
      const { device, refreshToken } = await openDevice(tx, deps, user.id, current?.label ?? deviceLabel(ctx));
      return { user, deviceId: device.id, refreshToken };
    });
    return { auth: await authResponse(deps, user, deviceId, refreshToken) };
  },

  async changeUsername(req, ctx) {
    const { deps } = ctx;
    const caller = ctx.user();
    await deps.hashing.admit(() => recheckPassword(ctx, req.password, "password"));
    const user = await deps.storage.transact(async (tx) => {
      const current = await requireUser(tx, caller.userId);
      await usernameFree(tx, req.newUsername, current.id);
      const user = { ...current, username: req.newUsername, usernameKey: usernameKey(req.newUsername) };
      await saveUser(tx, user);
      return user;
    });
    return toMe(user, deps.clock.now());
  },

  async listDevices(_req, ctx) {
    const { deps } = ctx;
    const caller = ctx.user();
    const rows = await deps.storage.transact((tx) => tx.query(tables.devices, "byUser", { equals: [caller.userId] }));
    const now = deps.clock.now();
    const live = rows.filter((d) => d.revokedAt === null && d.expiresAt > now);
    live.sort((a, b) => b.lastUsedAt - a.lastUsedAt || a.id.localeCompare(b.id));
    return {
      devices: live.map((d) => ({
        id: d.id, label: d.label, createdAt: iso(d.createdAt), lastUsedAt: iso(d.lastUsedAt), current: d.id === caller.deviceId,
      })),
    };
  },

  async revokeDevice(req, ctx) {
    const { deps } = ctx;
    const caller = ctx.user();
    await deps.storage.transact(async (tx) => {
      const device = await tx.get(tables.devices, req.deviceId);
      // Someone else's device answers like a missing one, so ids cannot be probed.
      if (!device || device.userId !== caller.userId || device.revokedAt !== null) throw fail.notFound("deviceId: no such device");
      await revokeDevice(tx, device, deps.clock.now());
    });
    return {};
  },

  async signOutEverywhere(_req, ctx) {
    const { deps } = ctx;
    await deps.storage.transact((tx) => revokeAllDevices(tx, ctx.user().userId, deps.clock.now()));
    return {};
  },

  async getSettings(_req, ctx) {
    const user = await ctx.deps.storage.transact((tx) => requireUser(tx, ctx.user().userId));
    return user.settings;
  },

  async updateSettings(req, ctx) {
    const { deps } = ctx;
    const updated = await deps.storage.transact(async (tx) => {
      const user = await requireUser(tx, ctx.user().userId);
      const settings = { ...user.settings };
      if (req.whoCanMessage) settings.whoCanMessage = req.whoCanMessage as typeof settings.whoCanMessage;
      if (req.whoCanFriend) settings.whoCanFriend = req.whoCanFriend as typeof settings.whoCanFriend;
      if (req.whoCanJoin) settings.whoCanJoin = req.whoCanJoin as typeof settings.whoCanJoin;
      if (req.showOnlineStatus !== undefined) settings.showOnlineStatus = req.showOnlineStatus;
      if (req.emailNotifications !== undefined) settings.emailNotifications = req.emailNotifications;
      if (req.theme) settings.theme = req.theme;
      const child = ageBandOf(user.birthdate, new Date(deps.clock.now())) === AgeBand.Under13;
      if (child && settings.whoCanMessage === "everyone") {
        throw fail.invalid("whoCanMessage: under-13 accounts allow friends or nobody");
      }
      await saveUser(tx, { ...user, settings });
      return settings;
    });
    if (req.showOnlineStatus !== undefined) await announcePresence(deps, [ctx.user().userId]);
    return updated;
  },

  async deleteAccount(req, ctx) {
    const { deps } = ctx;
    const caller = ctx.user();
    await deps.hashing.admit(() => recheckPassword(ctx, req.password, "password"));
    await deps.storage.transact(async (tx) => {
      const now = deps.clock.now();
      const user = await requireUser(tx, caller.userId);
      await saveUser(tx, { ...user, deletedAt: now });
      await revokeAllDevices(tx, user.id, now);
    });
    await announcePresence(deps, [caller.userId]);
    return {};
  },

  async issueScopedToken(req, ctx) {
    const { deps } = ctx;
    const caller = ctx.user();
    const lifetime = deps.config.lifetimes.scoped;
    const token = await deps.signer.sign(mintClaims(
      { sub: caller.userId, sid: caller.deviceId, typ: TokenType.Scoped, scope: req.scope },
      deps.clock.now(),
      lifetime,
    ));
    return { token, expiresIn: lifetime };
  },

  async createHandoff(req, ctx) {
    const { deps } = ctx;
    const caller = ctx.user();
    if (!isAllowedOrigin(req.targetOrigin, deps.config)) {
      throw fail.invalid("targetOrigin: not one of the configured web origins");
    }
    const code = deps.ids.secret();
    await deps.storage.transact(async (tx) => {
      const device = await tx.get(tables.devices, caller.deviceId);
      await tx.put(tables.handoffs, {
        hash: deps.hashSecret(code),
        userId: caller.userId,
        targetOrigin: req.targetOrigin,
        codeChallenge: req.codeChallenge,
        label: device?.label ?? "Unknown device",
        expiresAt: deps.clock.now() + deps.config.handoffSeconds * 1000,
        spent: false,
      });
    });
    return { code, expiresIn: deps.config.handoffSeconds };
  },

  async redeemHandoff(req, ctx) {
    const { deps } = ctx;
    // First spend the code, in its own transaction: it is spent even when the rest fails.
    const handoff = await deps.storage.transact(async (tx) => {
      const row = await tx.get(tables.handoffs, deps.hashSecret(req.code));
      if (!row || row.spent || row.expiresAt <= deps.clock.now()) return null;
      await tx.put(tables.handoffs, { ...row, spent: true });
      return row;
    });
    if (!handoff) throw fail.notFound("code: unknown, already used or expired");
    if (!isValidVerifier(req.codeVerifier)) throw fail.invalid("codeVerifier: 43 to 128 characters of A-Z a-z 0-9 - . _ ~");
    if (ctx.header("origin") !== handoff.targetOrigin) throw fail.denied("origin: the code was made for another origin");
    if (!verifyS256(req.codeVerifier, handoff.codeChallenge)) throw fail.denied("codeVerifier: does not match the code's challenge");
    const { user, deviceId, refreshToken } = await deps.storage.transact(async (tx) => {
      const user = await requireUser(tx, handoff.userId);
      if (user.ban) throw fail.denied("this account is banned");
      const label = ctx.header("x-svc-client")?.trim().slice(0, 100) || handoff.label;
      const { device, refreshToken } = await openDevice(tx, deps, user.id, label);
      return { user, deviceId: device.id, refreshToken };
    });
    return authResponse(deps, user, deviceId, refreshToken);
  },
};

