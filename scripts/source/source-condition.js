// A module resolve hook (node:module register): every import is resolved
// with the workspace's "@playfield/source" condition, as `node
// --conditions=@playfield/source` would, so a package's exports map points at
// its src/.
const CONDITION = "@playfield/source";

export async function resolve(specifier, context, nextResolve) {
  const conditions = context.conditions.includes(CONDITION) ? context.conditions : [...context.conditions, CONDITION];
  return nextResolve(specifier, { ...context, conditions });
}
