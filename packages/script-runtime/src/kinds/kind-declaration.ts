import { z } from "zod";

/** Python keywords and soft keywords: a name a `py` stub cannot use. */
const PY_RESERVED = new Set([
  "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif",
  "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or",
  "pass", "raise", "return", "try", "while", "with", "yield",
]);

const snake = z.string().regex(/^[a-z][a-z0-9_]*$/, "snake_case").refine((n) => !PY_RESERVED.has(n), "a Python keyword");
const camel = z.string().regex(/^[a-z][A-Za-z0-9]*$/, "camelCase");

/** The built-in value types of fields and arguments. */
export const BaseType = {
  number: { ts: "number", py: "float" },
  integer: { ts: "number", py: "int" },
  boolean: { ts: "boolean", py: "bool" },
  string: { ts: "string", py: "str" },
  /** An object's id. */
  id: { ts: "string", py: "str" },
} as const;
export type BaseType = keyof typeof BaseType;

/** A value type: a small record of numbers, strings or booleans, such as a vector or a colour. */
export const ValueTypeDeclaration = z.object({
  name: z.string().regex(/^[A-Z][A-Za-z0-9]*$/, "PascalCase"),
  doc: z.string().default(""),
  fields: z.array(z.object({
    name: z.string().regex(/^[a-z][a-z0-9]*$/, "one lower-case word (the same in every language)"),
    type: z.enum(["number", "integer", "boolean", "string"]),
    doc: z.string().default(""),
  })).min(1),
});
export type ValueTypeDeclaration = z.output<typeof ValueTypeDeclaration>;

/** A field of a kind, as the game declares it. */
export const FieldDeclaration = z.object({
  /** snake_case, as Python scripts and the configuration name it. */
  name: snake,
  /** camelCase, as JavaScript scripts name it. */
  js: camel,
  /** A base type (`number`, `integer`, `boolean`, `string`, `id`) or a declared value type. */
  type: z.string().min(1),
  /** Override of the TypeScript type text (default: from `type`). */
  type_ts: z.string().optional(),
  /** Override of the Python type text (default: from `type`). */
  type_py: z.string().optional(),
  read: z.boolean().default(true),
  write: z.boolean().default(false),
  /** Inclusive bounds of a number, or of every number in a value type. */
  range: z.tuple([z.number(), z.number()]).nullable().default(null),
  doc: z.string().default(""),
  /** The value of a freshly spawned object (default: zero, empty, false, clamped into `range`). */
  default: z.json().optional(),
});
export type FieldDeclaration = z.output<typeof FieldDeclaration>;

/** A method of a kind, as the game declares it. */
export const MethodDeclaration = z.object({
  name: snake,
  js: camel,
  args: z.array(z.object({ name: snake, js: camel.optional(), type: z.string().min(1), type_ts: z.string().optional(), type_py: z.string().optional() })).default([]),
  /** A value type or `void`. */
  returns: z.string().default("void"),
  /** Most calls per second of one script (over simulated time); 0 is no limit. */
  rate_per_s: z.number().int().min(0).default(0),
  doc: z.string().default(""),
});
export type MethodDeclaration = z.output<typeof MethodDeclaration>;

/** A kind of object in the game's world. */
export const KindDeclaration = z.object({
  kind: z.string().regex(/^[A-Z][A-Za-z0-9]*$/, "PascalCase"),
  doc: z.string().default(""),
  spawnable: z.boolean().default(false),
  fields: z.array(FieldDeclaration).default([]),
  methods: z.array(MethodDeclaration).default([]),
});
export type KindDeclaration = z.output<typeof KindDeclaration>;

/**
 * KindsDeclaration is everything a game exposes to scripts: its value types
 * and its kinds. Names are checked once here: unique, every type known,
 * ranges only on numbers, `min <= max`.
 */
export const KindsDeclaration = z.object({
  types: z.array(ValueTypeDeclaration).default([]),
  kinds: z.array(KindDeclaration),
}).superRefine((decl, ctx) => {
  const typeNames = new Set<string>(Object.keys(BaseType));
  for (const [i, t] of decl.types.entries()) {
    if (typeNames.has(t.name)) ctx.addIssue({ code: "custom", path: ["types", i, "name"], message: `duplicate type ${t.name}` });
    typeNames.add(t.name);
  }
  const kindNames = new Set<string>();
  for (const [k, kind] of decl.kinds.entries()) {
    if (kindNames.has(kind.kind) || typeNames.has(kind.kind)) ctx.addIssue({ code: "custom", path: ["kinds", k, "kind"], message: `duplicate name ${kind.kind}` });
    kindNames.add(kind.kind);
    const names = new Set<string>(["id", "kind"]);
    for (const [f, field] of kind.fields.entries()) {
      const at = ["kinds", k, "fields", f];
      for (const n of new Set([field.name, field.js])) {
        if (names.has(n)) ctx.addIssue({ code: "custom", path: at, message: `${kind.kind}: name ${n} is taken` });
        names.add(n);
      }
      if (!typeNames.has(field.type)) ctx.addIssue({ code: "custom", path: [...at, "type"], message: `unknown type ${field.type}` });
      if (field.range && field.range[0] > field.range[1]) ctx.addIssue({ code: "custom", path: [...at, "range"], message: "min is above max" });
      if (field.range && (field.type === "boolean" || field.type === "string" || field.type === "id")) ctx.addIssue({ code: "custom", path: [...at, "range"], message: "a range needs numbers" });
    }
    for (const [m, method] of kind.methods.entries()) {
      const at = ["kinds", k, "methods", m];
      for (const n of new Set([method.name, method.js])) {
        if (names.has(n)) ctx.addIssue({ code: "custom", path: at, message: `${kind.kind}: name ${n} is taken` });
        names.add(n);
      }
      for (const arg of method.args) {
        if (!typeNames.has(arg.type)) ctx.addIssue({ code: "custom", path: [...at, "args"], message: `unknown type ${arg.type}` });
      }
      if (method.returns !== "void" && !typeNames.has(method.returns)) ctx.addIssue({ code: "custom", path: [...at, "returns"], message: `unknown type ${method.returns}` });
    }
  }
});
export type KindsDeclaration = z.output<typeof KindsDeclaration>;
export type KindsDeclarationInput = z.input<typeof KindsDeclaration>;

/** The camelCase name of a snake_case one (`apply_impulse` → `applyImpulse`). */
export function camelName(snakeName: string): string {
  return snakeName.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}
