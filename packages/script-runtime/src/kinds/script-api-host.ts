import type { KindView, ApiView } from "./kind-grants.js";
import { KindRuleError } from "./kind-world.js";
import type { KindWorld, WorldObject } from "./kind-world.js";
import type { MethodRates } from "./method-rates.js";
import { checkValue } from "./value-check.js";

/** The host side of a game method: `self` is the object, `args` are checked against their types. */
export type MethodImplementation = (self: WorldObject, args: unknown[], context: { world: KindWorld; script: string; nowMs: number }) => unknown;

/** Method implementations by kind, then by snake_case method name. */
export type MethodImplementations = Readonly<Record<string, Readonly<Record<string, MethodImplementation>>>>;

/**
 * Creates the host side of one script's in-script API: it answers the
 * sandbox's `hostCall(op, argsJson)` with `{"v": value}` or
 * `{"e": [errorName, message]}`, and enforces every rule of the script's
 * view: unseen kinds, fields and methods, writes to read-only fields,
 * values outside their range, spawns of kinds it may not spawn, and calls
 * past a method's rate. A refused operation changes nothing.
 */
export function createScriptApiCall(options: { world: KindWorld; view: ApiView; script: string; rateKey?: string; methods: MethodImplementations; rates: MethodRates }): (op: string, argsJson: string) => string {
  const { world, view, script, methods, rates } = options;
  const rateKey = options.rateKey ?? script;
  const kinds = new Map<string, KindView>(view.kinds.map((k) => [k.decl.kind, k]));
  const refuse = (error: KindRuleError["error"], message: string): never => {
    throw new KindRuleError(error, message);
  };
  const visible = (id: unknown) => {
    const object = typeof id === "string" ? world.get(id) : undefined;
    const kind = object ? kinds.get(object.kind) : undefined;
    if (!object || !kind) return refuse("ReferenceError", `no object ${typeof id === "string" ? id : JSON.stringify(id)} (destroyed, or of a kind this script cannot see)`);
    return { object, kind };
  };
  const ref = (o: WorldObject) => [o.id, o.kind];
  const fieldOf = (kind: KindView, js: unknown) => {
    const field = kind.fields.find((f) => f.decl.js === js);
    if (!field) return refuse("TypeError", `${kind.decl.kind} has no field ${String(js)}`);
    return field;
  };

  const ops: Record<string, (args: unknown[]) => unknown> = {
    get([id]) {
      const object = typeof id === "string" ? world.get(id) : undefined;
      return object && kinds.has(object.kind) ? ref(object) : null;
    },
    find([kindName]) {
      if (typeof kindName !== "string" || !kinds.has(kindName)) return refuse("ReferenceError", `no kind ${String(kindName)} in this script's API`);
      return world.find(kindName).map(ref);
    },
    read([id, js]) {
      const { object, kind } = visible(id);
      const field = fieldOf(kind, js);
      if (!field.read) refuse("TypeError", `${kind.decl.kind}.${field.decl.js} is write-only`);
      return object.fields[field.decl.name];
    },
    write([id, js, value]) {
      const { object, kind } = visible(id);
      const field = fieldOf(kind, js);
      if (!field.write) refuse("TypeError", `${kind.decl.kind}.${field.decl.js} is read-only${field.decl.write ? " for this script" : ""}`);
      world.set(object.id, field.decl.name, value);
      return null;
    },
    spawn([kindName, init]) {
      const kind = typeof kindName === "string" ? kinds.get(kindName) : undefined;
      if (!kind) return refuse("ReferenceError", `no kind ${String(kindName)} in this script's API`);
      if (!kind.spawnable) refuse("TypeError", kind.decl.spawnable ? `${kind.decl.kind} may not be spawned by this script` : `${kind.decl.kind} is not spawnable`);
      const given = init ?? {};
      if (typeof given !== "object" || given === null || Array.isArray(given)) return refuse("TypeError", `spawn ${kind.decl.kind}: init must be an object of fields`);
      const bySnake: Record<string, unknown> = {};
      for (const [js, value] of Object.entries(given)) {
        const field = fieldOf(kind, js);
        if (!field.write) refuse("TypeError", `${kind.decl.kind}.${field.decl.js} is read-only`);
        bySnake[field.decl.name] = value;
      }
      return ref(world.spawn(kind.decl.kind, bySnake));
    },
    destroy([id]) {
      const { object, kind } = visible(id);
      if (!kind.spawnable) refuse("TypeError", `${kind.decl.kind} may not be destroyed by this script`);
      world.destroy(object.id);
      return null;
    },
    call([id, js, args, nowMs]) {
      const { object, kind } = visible(id);
      const method = kind.methods.find((m) => m.js === js);
      if (!method) return refuse("TypeError", `${kind.decl.kind} has no method ${String(js)}`);
      const list = Array.isArray(args) ? args : [];
      if (list.length > method.args.length) refuse("TypeError", `${kind.decl.kind}.${method.js}: takes ${method.args.length} argument(s), got ${list.length}`);
      method.args.forEach((arg, i) => {
        const wrong = checkValue(world.declarations, arg.type, list[i], null, `${kind.decl.kind}.${method.js}: ${arg.js ?? arg.name}`);
        if (wrong) refuse(wrong[0] as "TypeError", wrong[1]);
      });
      const implementation = methods[kind.decl.kind]?.[method.name];
      if (!implementation) return refuse("TypeError", `${kind.decl.kind}.${method.js} is not implemented by the game`);
      const now = typeof nowMs === "number" ? nowMs : 0;
      if (!rates.take(`${rateKey}|${kind.decl.kind}.${method.name}`, method.rate_per_s, now)) {
        refuse("RangeError", `${kind.decl.kind}.${method.js}: rate limit of ${method.rate_per_s} call${method.rate_per_s === 1 ? "" : "s"} per second reached`);
      }
      const result = implementation(object, list, { world, script, nowMs: now });
      return result === undefined ? null : result;
    },
  };

  return (op, argsJson) => {
    try {
      const handler = ops[op];
      if (!handler) return JSON.stringify({ e: ["TypeError", `unknown operation ${op}`] });
      const args: unknown = JSON.parse(argsJson);
      return JSON.stringify({ v: handler(Array.isArray(args) ? args : []) ?? null });
    } catch (error) {
      if (error instanceof KindRuleError) return JSON.stringify({ e: [error.error, error.message] });
      return JSON.stringify({ e: ["Error", `the game failed: ${error instanceof Error ? error.message : String(error)}`] });
    }
  };
}
