import { ownValue } from "../json/own-value.js";

/*
 * Engine versions as clients send them on Join (`1.4.2`, `2.0`, `1.10.0-beta`):
 * dot-separated numbers compared part by part, missing parts read as 0; a
 * suffix after `-` or `+` is ignored (a pre-release counts as its release).
 */

/** The numeric parts of an engine version, or null when it is not one. */
export function parseEngineVersion(text: string): number[] | null {
  const core = text.trim().split(/[-+]/, 1)[0] ?? "";
  if (!/^\d+(\.\d+)*$/.test(core)) return null;
  return core.split(".").map(Number);
}

/** Compares two engine versions: negative, 0 or positive. Unreadable versions sort first. */
export function compareEngineVersions(a: string, b: string): number {
  const x = parseEngineVersion(a), y = parseEngineVersion(b);
  if (!x || !y) return (x ? 1 : 0) - (y ? 1 : 0);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The minimum engine version a client on `platform` lacks, or null when it
 * may join: a version's `engineMin` names a minimum per platform; platforms
 * it does not name have none. An empty or unreadable `engineVersion` is
 * below any minimum.
 */
export function missingEngineVersion(engineMin: Readonly<Record<string, string>>, platform: string, engineVersion: string): string | null {
  // `platform` is the caller's string: only the version's own entries count (not `constructor`, `toString`, …).
  const min = ownValue(engineMin, platform);
  if (typeof min !== "string" || min === "") return null;
  if (parseEngineVersion(engineVersion) === null) return min;
  return compareEngineVersions(engineVersion, min) < 0 ? min : null;
}
