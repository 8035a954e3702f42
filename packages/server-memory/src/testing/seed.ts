import { mintClaims, TokenType } from "@playfield/core";
import { authResponse, newUser, openDevice, putMember, saveUser, type ServerDeps } from "@playfield/server";

/** A seeded user with live tokens, ready to hand to a client. */
export interface SeededUser {
  userId: string;
  username: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  deviceId: string;
}

export interface SeedUserOptions {
  username?: string;
  password?: string;
  /** `YYYY-MM-DD`; default an adult's. */
  birthdate?: string;
  displayName?: string;
  guest?: boolean;
  /** Device label. */
  label?: string;
}

/** Seed helpers for test suites: make users, guests and game tokens without going through the API. */
export interface Seeder {
  user(options?: SeedUserOptions): Promise<SeededUser>;
  guest(options?: Omit<SeedUserOptions, "guest" | "password" | "birthdate">): Promise<SeededUser>;
  /**
   * A game token for a user in a game session (adds the membership row).
   * Until SessionService.Join is built, this is how tests get game tokens.
   */
  gameToken(user: SeededUser, options?: { sessionId?: string; experienceId?: string }): Promise<string>;
  /** A scoped token (`studio` or `avatar`) for a user's device. */
  scopedToken(user: SeededUser, scope: "studio" | "avatar"): Promise<string>;
}

export function createSeeder(deps: ServerDeps): Seeder {
  let counter = 0;
  const seeder: Seeder = {
    async user(options = {}) {
      counter += 1;
      const guest = options.guest ?? false;
      const username = options.username ?? (guest ? `Guest_${deps.ids.digits(8)}` : `player${counter}_${deps.ids.digits(4)}`);
      const password = options.password ?? `password-${counter}-secret`;
      const birthdate = guest ? null : options.birthdate ?? "1990-01-01";
      const passwordHash = guest ? null : await deps.hasher.hash(password);
      const { user, deviceId, refreshToken } = await deps.storage.transact(async (tx) => {
        const user = newUser(deps, { username, displayName: options.displayName ?? "", passwordHash, birthdate });
        await saveUser(tx, user);
        const { device, refreshToken } = await openDevice(tx, deps, user.id, options.label ?? "seed");
        return { user, deviceId: device.id, refreshToken };
      });
      const auth = await authResponse(deps, user, deviceId, refreshToken);
      return { userId: user.id, username, password, accessToken: auth.accessToken, refreshToken, deviceId };
    },
    guest: (options = {}) => seeder.user({ ...options, guest: true }),
    async gameToken(user, options = {}) {
      const sessionId = options.sessionId ?? deps.ids.id("gs");
      const experienceId = options.experienceId ?? deps.ids.id("exp");
      const now = deps.clock.now();
      await deps.storage.transact((tx) => putMember(tx, {
        id: `${sessionId}:${user.userId}`, sessionId, userId: user.userId, experienceId, joinedAt: now, lastHeartbeatAt: now,
      }));
      return deps.signer.sign(mintClaims(
        { sub: user.userId, sid: user.deviceId, typ: TokenType.Game, gsid: sessionId, xid: experienceId },
        now,
        deps.config.lifetimes.game,
      ));
    },
    scopedToken(user, scope) {
      return deps.signer.sign(mintClaims(
        { sub: user.userId, sid: user.deviceId, typ: TokenType.Scoped, scope },
        deps.clock.now(),
        deps.config.lifetimes.scoped,
      ));
    },
  };
  return seeder;
}
