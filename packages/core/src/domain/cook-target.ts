import { ownValue } from "../json/own-value.js";

/*
 * Which cooked content a client gets: place versions carry one content
 * manifest URL per cook target (`web`, `desktop`, `mobile_high`,
 * `mobile_low`); clients name their platform on Join.
 */

/** The cook targets a platform can run, best first. A Map: platforms are callers' strings. */
export const COOK_TARGETS_BY_PLATFORM: ReadonlyMap<string, readonly string[]> = new Map([
  ["web", ["web"]],
  ["macos", ["desktop", "web"]],
  ["windows", ["desktop", "web"]],
  ["linux", ["desktop", "web"]],
  ["ios", ["mobile_high", "mobile_low"]],
  ["android", ["mobile_high", "mobile_low"]],
]);

/**
 * The content manifest URL for a platform: a target named exactly like the
 * platform first, then the platform's targets best first, then `web`; ""
 * when the version has none of them.
 */
export function contentUrlFor(contentUrls: Readonly<Record<string, string>>, platform: string): string {
  const targets = [platform, ...(COOK_TARGETS_BY_PLATFORM.get(platform) ?? []), "web"];
  for (const target of targets) {
    const url = ownValue(contentUrls, target);
    if (typeof url === "string" && url !== "") return url;
  }
  return "";
}
