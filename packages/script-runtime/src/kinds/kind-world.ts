import type { KindDeclaration, KindsDeclaration } from "./kind-declaration.js";
import { checkValue, zeroValue } from "./value-check.js";

/** One object of the world: its id, its kind and its fields by snake_case name. */
export interface WorldObject {
  readonly id: string;
  readonly kind: string;
  readonly fields: Record<string, unknown>;
}

/** A value that does not fit a field (or argument); `error` is what a script sees (`TypeError`, `RangeError`). */
export class KindRuleError extends Error {
  constructor(readonly error: "TypeError" | "RangeError" | "ReferenceError", message: string) {
    super(message);
  }
}

/**
 * KindWorld holds the objects of the declared kinds. The host (the game)
 * uses it without permission checks; every value is still checked against
 * its field's type and range, so the world never holds a value a script
 * could not have written.
 */
export interface KindWorld {
  readonly declarations: KindsDeclaration;
  kind(name: string): KindDeclaration | undefined;
  /** Adds an object; `init` is by snake_case field name. Ids are `<kind in lower case>-<n>`, in order. */
  spawn(kind: string, init?: Record<string, unknown>): WorldObject;
  get(id: string): WorldObject | undefined;
  /** Objects of a kind in spawn order. */
  find(kind: string): WorldObject[];
  /** Sets a field (snake_case), checked against its type and range. */
  set(id: string, field: string, value: unknown): void;
  destroy(id: string): boolean;
  /** Every object as JSON data, in spawn order. */
  snapshot(): { id: string; kind: string; fields: Record<string, unknown> }[];
}

/** Creates an empty world of the declared kinds. */
export function createKindWorld(declarations: KindsDeclaration): KindWorld {
  const objects = new Map<string, { id: string; kind: string; fields: Record<string, unknown> }>();
  const counters = new Map<string, number>();
  const kindOf = (name: string) => declarations.kinds.find((k) => k.kind === name);
  const fail = (wrong: [string, string] | undefined) => {
    if (wrong) throw new KindRuleError(wrong[0] as "TypeError", wrong[1]);
  };
  return {
    declarations,
    kind: kindOf,
    spawn(kind, init = {}) {
      const decl = kindOf(kind);
      if (!decl) throw new KindRuleError("ReferenceError", `unknown kind ${kind}`);
      for (const key of Object.keys(init)) {
        if (!decl.fields.some((f) => f.name === key)) throw new KindRuleError("TypeError", `${kind} has no field ${key}`);
      }
      const fields: Record<string, unknown> = {};
      for (const f of decl.fields) {
        const value = Object.prototype.hasOwnProperty.call(init, f.name) ? init[f.name] : f.default ?? zeroValue(declarations, f.type, f.range);
        fail(checkValue(declarations, f.type, value, f.range, `${kind}.${f.name}`));
        fields[f.name] = structuredClone(value);
      }
      const n = (counters.get(kind) ?? 0) + 1;
      counters.set(kind, n);
      const object = { id: `${kind.toLowerCase()}-${n}`, kind, fields };
      objects.set(object.id, object);
      return object;
    },
    get: (id) => objects.get(id),
    find: (kind) => [...objects.values()].filter((o) => o.kind === kind),
    set(id, field, value) {
      const object = objects.get(id);
      if (!object) throw new KindRuleError("ReferenceError", `no object ${id}`);
      const decl = kindOf(object.kind)!.fields.find((f) => f.name === field);
      if (!decl) throw new KindRuleError("TypeError", `${object.kind} has no field ${field}`);
      fail(checkValue(declarations, decl.type, value, decl.range, `${object.kind}.${field}`));
      object.fields[field] = structuredClone(value);
    },
    destroy: (id) => objects.delete(id),
    snapshot: () => [...objects.values()].map((o) => ({ id: o.id, kind: o.kind, fields: structuredClone(o.fields) })),
  };
}
