/**
 * Principal is who a script runs for: the game's creator, or a player (with
 * their roles) for a player's live script.
 */
export type Principal = "creator" | { player: string; roles: string[] };

/** Whether two principals are the same one (roles aside). */
export function samePrincipal(a: Principal, b: Principal): boolean {
  if (a === "creator" || b === "creator") return a === b;
  return a.player === b.player;
}

/** A short text naming a principal, for log lines. */
export function describePrincipal(p: Principal): string {
  return p === "creator" ? "the creator" : `player ${p.player}`;
}
