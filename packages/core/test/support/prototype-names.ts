/** Every name a plain object answers from its prototype: what a hostile caller sends as a key. */
export const PROTOTYPE_NAMES: readonly string[] = [...new Set([...Object.getOwnPropertyNames(Object.prototype), "__proto__", "prototype"])];
