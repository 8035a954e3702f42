import {
  AgeBand, ageBandOf, fail, isoTime, mintClaims, tables, TokenType, usernameKey,
  type AccountSettingsRow, type DeviceRow, type MethodOutput, type Tx, type UserRow, type IdentityService,
} from "@playfield/core";
import type { HandlerContext } from "../../rpc/handler-context.js";
import { indexNames } from "../social/name-search.js";
import { userSubject } from "../social/user-search.js";
import type { ServerDeps } from "../../server-deps.js";

/*
 * Account helpers shared by the identity methods: the views of a user, and
 * opening and closing device sessions.
 */

type AuthResponse = MethodOutput<typeof IdentityService.methods.signIn>;
type Me = MethodOutput<typeof IdentityService.methods.getMe>;

/** A stored time as the API writes it (ISO 8601). */
export const iso = isoTime;

/** The path of a user's headshot (served by avatar-headshot.ts); `v` changes whenever the avatar does. */
export function headshotPath(userId: string, avatarVersion: number): string {
  return `/avatars/${encodeURIComponent(userId)}/headshot.svg?v=${avatarVersion}`;
}

/** A user as others see them: the one way to render a user. */
export function userSummary(user: UserRow) {
  const version = user.avatarVersion ?? 0;
  return { id: user.id, username: user.username, displayName: user.displayName || user.username, headshotUrl: headshotPath(user.id, version) };
}

export function toMe(user: UserRow, now: number): Me {
  return {
    user: userSummary(user),
    ageBand: ageBandOf(user.guest ? null : user.birthdate, new Date(now)),
    createdAt: iso(user.createdAt),
    guest: user.guest,
  };
}

/** Default settings: child-safe for under-13 accounts and guests (DESIGN.md). */
export function defaultSettings(ageBand: string): AccountSettingsRow {
  const child = ageBand === AgeBand.Under13;
  return {
    whoCanMessage: child ? "friends" : "everyone",
    whoCanFriend: "everyone",
    whoCanJoin: child ? "friends" : "everyone",
    showOnlineStatus: true,
    emailNotifications: true,
    theme: "system",
  };
}

/** The device label from `x-svc-client`, as the spec says. */
export function deviceLabel(ctx: HandlerContext): string {
  const label = ctx.header("x-svc-client")?.trim().slice(0, 100);
  return label || "Unknown device";
}

/** Opens a device session for a user and answers its refresh token. Inside a transaction.
 * @private Internal code, does not follow semantic versioning (the test kit seeds users with it).
 */
export async function openDevice(tx: Tx, deps: ServerDeps, userId: string, label: string): Promise<{ device: DeviceRow; refreshToken: string }> {
  const now = deps.clock.now();
  const device: DeviceRow = {
    id: deps.ids.id("dev"),
    userId,
    label,
    createdAt: now,
    lastUsedAt: now,
    expiresAt: now + deps.config.lifetimes.refresh * 1000,
    revokedAt: null,
  };
  await tx.put(tables.devices, device);
  const refreshToken = deps.ids.secret();
  await tx.put(tables.refreshTokens, { hash: deps.hashSecret(refreshToken), deviceId: device.id, userId, rotated: false });
  return { device, refreshToken };
}

/** Ends a device session: its tokens stop working at once. Inside a transaction. */
export async function revokeDevice(tx: Tx, device: DeviceRow, now: number): Promise<void> {
  if (device.revokedAt === null) await tx.put(tables.devices, { ...device, revokedAt: now });
  for (const token of await tx.query(tables.refreshTokens, "byDevice", { equals: [device.id] })) {
    await tx.delete(tables.refreshTokens, token.hash);
  }
}

/** Ends every device session of a user but `keep`. */
export async function revokeAllDevices(tx: Tx, userId: string, now: number, keep?: string): Promise<void> {
  for (const device of await tx.query(tables.devices, "byUser", { equals: [userId] })) {
    if (device.id !== keep && device.revokedAt === null) await revokeDevice(tx, device, now);
  }
}

/** The answer of every sign-in: a fresh access token for the device session.
 * @private Internal code, does not follow semantic versioning (the test kit seeds users with it).
 */
export async function authResponse(deps: ServerDeps, user: UserRow, deviceId: string, refreshToken: string): Promise<AuthResponse> {
  const now = deps.clock.now();
  const lifetime = deps.config.lifetimes.access;
  // jti keeps every token distinct, even two minted in the same second.
  const claims = mintClaims({ sub: user.id, sid: deviceId, typ: TokenType.Access, jti: deps.ids.id("tok") }, now, lifetime);
  const accessToken = await deps.signer.sign(claims);
  return { accessToken, refreshToken, expiresInSeconds: lifetime, me: toMe(user, now) };
}

/** The live user row of a caller (guards against a row deleted since the auth check). */
export async function requireUser(tx: Tx, userId: string): Promise<UserRow> {
  const user = await tx.get(tables.users, userId);
  if (!user || user.deletedAt !== null) throw fail.unauthenticated("the account no longer exists");
  return user;
}

/** The live (not deleted) users of `ids`, in their order: one read for all of them. */
export async function liveUsers(tx: Tx, ids: readonly string[]): Promise<UserRow[]> {
  return (await tx.getMany(tables.users, ids)).filter((user): user is UserRow => user !== undefined && user.deletedAt === null);
}

/** A new user row: an account (with password and birthdate) or a guest (with neither).
 * @private Internal code, does not follow semantic versioning (the test kit seeds users with it).
 */
export function newUser(deps: ServerDeps, fields: { username: string; displayName: string; passwordHash: string | null; birthdate: string | null }): UserRow {
  const now = deps.clock.now();
  const guest = fields.passwordHash === null;
  return {
    id: deps.ids.id("usr"),
    username: fields.username,
    usernameKey: usernameKey(fields.username),
    displayName: fields.displayName.trim(),
    passwordHash: fields.passwordHash,
    birthdate: fields.birthdate,
    guest,
    createdAt: now,
    deletedAt: null,
    settings: defaultSettings(guest ? AgeBand.Under13 : ageBandOf(fields.birthdate, new Date(now))),
  };
}

/** Writes a user row and keeps its names searchable: the one way to save a user. Inside a transaction.
 * @private Internal code, does not follow semantic versioning (the test kit seeds users with it).
 */
export async function saveUser(tx: Tx, user: UserRow): Promise<void> {
  await tx.put(tables.users, user);
  await indexNames(tx, userSubject(user));
}
