/**
 * Resolves an import inside a script to a module path in the project's
 * scripts folder: `./x` and `../x` are relative to the importing module,
 * anything else is relative to the folder's root; `.js` is added when the
 * name has no extension. Paths never leave the folder.
 *
 * @example
 * normalizeModuleName("enemies/boss.js", "../lib/math") // "lib/math.js"
 */
export function normalizeModuleName(base: string, requested: string): string {
  const relative = requested.startsWith("./") || requested.startsWith("../");
  const parts = relative ? base.split("/").slice(0, -1) : [];
  for (const part of requested.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  const path = parts.join("/");
  return /\.[a-z]+$/i.test(path) ? path : `${path}.js`;
}
