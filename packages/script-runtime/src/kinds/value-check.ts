import { BaseType } from "./kind-declaration.js";
import type { KindsDeclaration, ValueTypeDeclaration } from "./kind-declaration.js";

/** Finds a declared value type by name. */
export function valueType(decl: KindsDeclaration, name: string): ValueTypeDeclaration | undefined {
  return decl.types.find((t) => t.name === name);
}

const inRange = (n: number, range: readonly [number, number] | null) => range === null || (n >= range[0] && n <= range[1]);
const show = (v: unknown) => {
  const text = JSON.stringify(v);
  return text === undefined ? String(v) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/**
 * Checks a value a script gives for a field or argument of `type`: the
 * answer is undefined when it fits, or why not, as `[kind, message]` where
 * kind is the error a script sees (`TypeError` or `RangeError`).
 */
export function checkValue(decl: KindsDeclaration, type: string, value: unknown, range: readonly [number, number] | null, label: string): [string, string] | undefined {
  switch (type) {
    case "number":
    case "integer":
      if (typeof value !== "number" || !Number.isFinite(value)) return ["TypeError", `${label}: expected a finite number, got ${show(value)}`];
      if (type === "integer" && !Number.isInteger(value)) return ["TypeError", `${label}: expected an integer, got ${show(value)}`];
      if (!inRange(value, range)) return ["RangeError", `${label}: ${value} is outside its range [${range![0]}, ${range![1]}]`];
      return undefined;
    case "boolean":
      return typeof value === "boolean" ? undefined : ["TypeError", `${label}: expected a boolean, got ${show(value)}`];
    case "string":
    case "id":
      if (typeof value !== "string") return ["TypeError", `${label}: expected a string, got ${show(value)}`];
      return value.length > 10_000 ? ["RangeError", `${label}: longer than 10000 characters`] : undefined;
  }
  const record = valueType(decl, type);
  if (!record) return ["TypeError", `${label}: unknown type ${type}`];
  if (typeof value !== "object" || value === null || Array.isArray(value)) return ["TypeError", `${label}: expected a ${type} {${record.fields.map((f) => f.name).join(", ")}}, got ${show(value)}`];
  const given = value as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!record.fields.some((f) => f.name === key)) return ["TypeError", `${label}: ${type} has no field ${key}`];
  }
  for (const field of record.fields) {
    const wrong = checkValue(decl, field.type, given[field.name], range, `${label}.${field.name}`);
    if (wrong) return wrong;
  }
  return undefined;
}

/** The value of a field on a freshly spawned object when none is given: zero, empty or false, clamped into the range. */
export function zeroValue(decl: KindsDeclaration, type: string, range: readonly [number, number] | null): unknown {
  if (type === "number" || type === "integer") return range === null ? 0 : Math.min(Math.max(0, range[0]), range[1]);
  if (type === "boolean") return false;
  if (type in BaseType) return "";
  const record = valueType(decl, type);
  return Object.fromEntries((record?.fields ?? []).map((f) => [f.name, zeroValue(decl, f.type, range)]));
}

/** TypeScript and Python type texts of a declared type (`void` for no value). */
export function typeTexts(type: string): { ts: string; py: string } {
  if (type === "void") return { ts: "void", py: "None" };
  const base = (BaseType as Record<string, { ts: string; py: string } | undefined>)[type];
  return base ? { ts: base.ts, py: base.py } : { ts: type, py: type };
}
