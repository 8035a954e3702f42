/**
 * MethodRates counts calls of rate-limited methods per script and method
 * over a sliding second of simulated time. It is kept by the game's kinds,
 * not by a sandbox, so reloading a script does not reset its counts.
 */
export interface MethodRates {
  /** Records a call at `nowMs` and answers true, or answers false when `perSecond` calls already fell within the last second. */
  take(key: string, perSecond: number, nowMs: number): boolean;
}

/** Creates empty counts. */
export function createMethodRates(): MethodRates {
  const calls = new Map<string, number[]>();
  return {
    take(key, perSecond, nowMs) {
      if (perSecond <= 0) return true;
      let times = calls.get(key);
      if (!times) calls.set(key, (times = []));
      let drop = 0;
      while (drop < times.length && times[drop]! <= nowMs - 1000) drop++;
      if (drop > 0) times.splice(0, drop);
      if (times.length >= perSecond) return false;
      times.push(nowMs);
      return true;
    },
  };
}
