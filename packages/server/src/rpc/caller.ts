import type { TokenClaims } from "@playfield/core";

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
