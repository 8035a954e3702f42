import type { TokenClaims, UserRow } from "@playfield/core";

/** Who is calling, as the auth check found them. */
export type Caller =
  | { kind: "anonymous" }
  | {
      kind: "user";
      userId: string;
      /** The device session the token belongs to. */
      deviceId: string;
      guest: boolean;
      /** Set for scoped tokens. */
      scope: string | null;
      claims: TokenClaims;
      /**
       * The user's row as the auth check read it, in the transaction that
       * found the device live: a method that answers only it (GetMe) needs
       * no read, and on a database no round trip, of its own.
       */
      account: UserRow;
    }
  | {
      kind: "game";
      userId: string;
      deviceId: string;
      sessionId: string;
      experienceId: string;
      claims: TokenClaims;
    };

export type UserCaller = Extract<Caller, { kind: "user" }>;
export type GameCaller = Extract<Caller, { kind: "game" }>;
