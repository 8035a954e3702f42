/** Where the lobby finds the Playfield API when the page's address does not say: the root `npm start`. */
export const DEFAULT_SERVER = "http://127.0.0.1:8080";

/**
 * The API the lobby talks to: `?server=` in the page's address
 * (`http://127.0.0.1:5173/?server=http://127.0.0.1:9000`), else {@link DEFAULT_SERVER}.
 */
export function serverUrl(search: string): string {
  const given = new URLSearchParams(search).get("server");
  return (given || DEFAULT_SERVER).replace(/\/+$/, "");
}
