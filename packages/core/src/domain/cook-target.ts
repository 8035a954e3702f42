/*
 * Which cooked content a client gets: place versions carry one content
 * manifest URL per cook target (`web`, `desktop`, `mobile_high`,
 * `mobile_low`); clients name their platform on Join.
 */

/** The cook targets a platform can run, best first. */
export const COOK_TARGETS_BY_PLATFORM: Readonly<Record<string, readonly string[]>> = {
  web: ["web"],
  macos: ["desktop", "web"],
  windows: ["desktop", "web"],
  linux: ["desktop", "web"],
  ios: ["mobile_high", "mobile_low"],
  android: ["mobile_high", "mobile_low"],
};

/**
 * The content manifest URL for a platform: a target named exactly like the
 * platform first, then the platform's targets best first, then `web`; ""
 * when the version has none of them.
 */
export function contentUrlFor(contentUrls: Readonly<Record<string, string>>, platform: string): string {
  const targets = [platform, ...(COOK_TARGETS_BY_PLATFORM[platform] ?? []), "web"];
  for (const target of targets) {
    const url = contentUrls[target];
    if (url) return url;
  }
  return "";
}
