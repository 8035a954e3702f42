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

/** 127.0.0.0/8, ::1 and localhost: addresses only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Why a server may not listen on `host` without a public URL, or null when it
 * may: beyond loopback the URLs it hands out (realtime, signalling, checkout)
 * would have nothing but a request's `Host` to go on, which anyone can forge.
 */
export function publicUrlRefusal(host: string, publicUrl: string | null): string | null {
  if (publicUrl !== null || isLoopbackHost(host)) return null;
  return `listening on ${host} serves beyond loopback: set the address players reach the server at `
    + "(--public-url or PLAYFIELD_PUBLIC_URL, such as https://play.example; the publicUrl option in code)";
}
