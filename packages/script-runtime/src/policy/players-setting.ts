import { z } from "zod";

/**
 * PlayersSetting says which players may run live scripts: nobody, the
 * game's owner, the owner and the owner's friends, everyone, or players
 * holding one of the listed roles.
 */
export const PlayersSetting = z.union([
  z.enum(["off", "owner", "friends", "everyone"]),
  z.object({ roles: z.array(z.string().min(1)).min(1) }),
]);
export type PlayersSetting = z.infer<typeof PlayersSetting>;

/** What the load command says about the player. */
export interface PlayerClaims {
  roles: string[];
  owner: boolean;
  friend: boolean;
}

/**
 * Why the players setting refuses this player's script, or undefined when
 * it allows it.
 */
export function playersRefusal(setting: PlayersSetting, player: PlayerClaims): string | undefined {
  if (typeof setting === "object") {
    return player.roles.some((r) => setting.roles.includes(r)) ? undefined
      : `players' scripts are limited to the roles ${setting.roles.join(", ")}`;
  }
  switch (setting) {
    case "off": return "players' scripts are off";
    case "owner": return player.owner ? undefined : "players' scripts are limited to the owner";
    case "friends": return player.owner || player.friend ? undefined : "players' scripts are limited to the owner and friends";
    case "everyone": return undefined;
  }
}
