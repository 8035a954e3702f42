import type { ApiView } from "../kinds/kind-grants.js";
import { typeTexts } from "../kinds/value-check.js";

/** One field of a kind entry in `script.api`. */
export interface ApiField {
  name: string;
  js: string;
  type_ts: string;
  type_py: string;
  read: boolean;
  write: boolean;
  range: [number, number] | null;
  doc: string;
}

/** One method of a kind entry in `script.api`. */
export interface ApiMethod {
  name: string;
  js: string;
  args: { name: string; type_ts: string; type_py: string }[];
  returns_ts: string;
  returns_py: string;
  rate_per_s: number;
  doc: string;
}

/** One element of `kinds` in the `script.api` result. */
export interface ApiKind {
  kind: string;
  doc: string;
  spawnable: boolean;
  fields: ApiField[];
  methods: ApiMethod[];
}

/** One value type (`Vector3`, `Color3`, ...) of the `script.api` result's `types`. */
export interface ApiValueType {
  name: string;
  doc: string;
  fields: { name: string; type_ts: string; type_py: string; doc: string }[];
}

/** The `script.api` result: the visible kinds, and the value types their fields use. */
export interface ScriptApi {
  kinds: ApiKind[];
  types: ApiValueType[];
}

/** The `script.api` form of a view: one entry per visible kind. */
export function apiEntries(view: ApiView): ScriptApi {
  return {
    kinds: view.kinds.map((k) => ({
      kind: k.decl.kind,
      doc: k.decl.doc,
      spawnable: k.spawnable,
      fields: k.fields.map((f) => {
        const t = typeTexts(f.decl.type);
        return {
          name: f.decl.name,
          js: f.decl.js,
          type_ts: f.decl.type_ts ?? t.ts,
          type_py: f.decl.type_py ?? t.py,
          read: f.read,
          write: f.write,
          range: f.decl.range === null ? null : [f.decl.range[0], f.decl.range[1]],
          doc: f.decl.doc,
        };
      }),
      methods: k.methods.map((m) => {
        const r = typeTexts(m.returns);
        return {
          name: m.name,
          js: m.js,
          args: m.args.map((a) => {
            const t = typeTexts(a.type);
            return { name: a.name, type_ts: a.type_ts ?? t.ts, type_py: a.type_py ?? t.py };
          }),
          returns_ts: r.ts,
          returns_py: r.py,
          rate_per_s: m.rate_per_s,
          doc: m.doc,
        };
      }),
    })),
    types: view.types.map((t) => ({
      name: t.name,
      doc: t.doc,
      fields: t.fields.map((f) => ({ name: f.name, ...(({ ts, py }) => ({ type_ts: ts, type_py: py }))(typeTexts(f.type)), doc: f.doc })),
    })),
  };
}
