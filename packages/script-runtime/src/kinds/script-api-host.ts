import type { ScriptLanguage } from "../commands/command-args.js";
import type { MethodDeclaration } from "./kind-declaration.js";
import type { FieldView, KindView, ApiView } from "./kind-grants.js";
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
export function createScriptApiCall(options: { world: KindWorld; view: ApiView; script: string; rateKey?: string; methods: MethodImplementations; rates: MethodRates; language?: ScriptLanguage }): (op: string, argsJson: string, nowMs: number) => string {
  const { world, view, script, methods, rates } = options;
  // A script names fields, methods and arguments in its own language: camelCase in JavaScript, snake_case in Python.
  const py = options.language === "py";
  const fieldName = (f: FieldView) => (py ? f.decl.name : f.decl.js);
  const methodName = (m: MethodDeclaration) => (py ? m.name : m.js);
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
  const fieldOf = (kind: KindView, name: unknown) => {
    const field = kind.fields.find((f) => fieldName(f) === name);
    if (!field) return refuse("TypeError", `${kind.decl.kind} has no field ${String(name)}`);
    return field;
  };

  const ops: Record<string, (args: unknown[], nowMs: number) => unknown> = {
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
      if (!field.read) refuse("TypeError", `${kind.decl.kind}.${fieldName(field)} is write-only`);
      return object.fields[field.decl.name];
    },
    write([id, js, value]) {
      const { object, kind } = visible(id);
      const field = fieldOf(kind, js);
      if (!field.write) refuse("TypeError", `${kind.decl.kind}.${fieldName(field)} is read-only${field.decl.write ? " for this script" : ""}`);
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
      for (const [name, value] of Object.entries(given)) {
        const field = fieldOf(kind, name);
        if (!field.write) refuse("TypeError", `${kind.decl.kind}.${fieldName(field)} is read-only`);
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
    // The call's time is the host's (nowMs), never one the script passes.
    call([id, name, args], nowMs) {
      const { object, kind } = visible(id);
      const method = kind.methods.find((m) => methodName(m) === name);
      if (!method) return refuse("TypeError", `${kind.decl.kind} has no method ${String(name)}`);
      const label = `${kind.decl.kind}.${methodName(method)}`;
      const list = Array.isArray(args) ? args : [];
      if (list.length > method.args.length) refuse("TypeError", `${label}: takes ${method.args.length} argument(s), got ${list.length}`);
      method.args.forEach((arg, i) => {
        const wrong = checkValue(world.declarations, arg.type, list[i], null, `${label}: ${py ? arg.name : arg.js ?? arg.name}`);
        if (wrong) refuse(wrong[0] as "TypeError", wrong[1]);
      });
      const implementation = methods[kind.decl.kind]?.[method.name];
      if (!implementation) return refuse("TypeError", `${label} is not implemented by the game`);
      if (!rates.take(`${rateKey}|${kind.decl.kind}.${method.name}`, method.rate_per_s, nowMs)) {
        refuse("RangeError", `${label}: rate limit of ${method.rate_per_s} call${method.rate_per_s === 1 ? "" : "s"} per second reached`);
      }
      const result = implementation(object, list, { world, script, nowMs });
      return result === undefined ? null : result;
    },
  };

  return (op, argsJson, nowMs) => {
    try {
      const handler = ops[op];
      if (!handler) return JSON.stringify({ e: ["TypeError", `unknown operation ${op}`] });
      const args: unknown = JSON.parse(argsJson);
      return JSON.stringify({ v: handler(Array.isArray(args) ? args : [], nowMs) ?? null });
    } catch (error) {
      if (error instanceof KindRuleError) return JSON.stringify({ e: [error.error, error.message] });
      return JSON.stringify({ e: ["Error", `the game failed: ${error instanceof Error ? error.message : String(error)}`] });
    }
  };
}
