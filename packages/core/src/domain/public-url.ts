/** What a public URL must be, said the same way by the server's option and the command's flag. */
export const PUBLIC_URL_RULE = "an http:// or https:// URL with no query or credentials, such as https://play.example";

/**
 * The address players reach a server at, normalised (no trailing slash), or
 * null when `text` breaks the rule. No query, fragment or credentials: the
 * URL is handed to every player in realtime and checkout links.
 */
export function normalizePublicUrl(text: string): string | null {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) return null;
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") return null;
  return url.href.replace(/\/$/, "");
}
