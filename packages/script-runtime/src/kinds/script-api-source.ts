import type { ApiView } from "./kind-grants.js";

/**
 * The in-script API's sandbox side, for one view: a global function
 * expression called as `(hostCall, charge)` that defines the global `game`
 * (`spawn`, `get`, `find`, `destroy`) and, per visible kind, handles with
 * camelCase accessors and methods. Every rule is checked on the host; a
 * refusal comes back as a `TypeError`, `RangeError` or `ReferenceError`
 * thrown inside the script.
 */
export function scriptApiSource(view: ApiView): string {
  const shape = view.kinds.map((k) => ({
    kind: k.decl.kind,
    fields: k.fields.map((f) => [f.decl.js, f.read]),
    methods: k.methods.map((m) => m.js),
  }));
  return String.raw`(function (hostCall, charge) {
"use strict";
const VIEW = ${JSON.stringify(shape)};
const O = Object;
const parse = JSON.parse;
const stringify = JSON.stringify;
const freeze = O.freeze;
const create = O.create;
const defineProperty = O.defineProperty;
const errors = { TypeError, RangeError, ReferenceError, Error };
// Each call into the game costs fuel like a small built-in.
const call = (op, args) => {
  charge(100);
  const answer = parse(hostCall(op, stringify(args)));
  if (answer.e) { const E = errors[answer.e[0]] || Error; throw new E(answer.e[1]); }
  return answer.v;
};
const protos = create(null);
for (const k of VIEW) {
  const proto = create(null);
  for (const [js, read] of k.fields) {
    defineProperty(proto, js, {
      get: read ? function () { return call("read", [this.id, js]); } : undefined,
      set: function (value) { call("write", [this.id, js, value]); },
      enumerable: true,
    });
  }
  for (const js of k.methods) {
    defineProperty(proto, js, { value: { [js](...args) { return call("call", [this.id, js, args]); } }[js] });
  }
  defineProperty(proto, "toJSON", { value: function toJSON() { return { id: this.id, kind: this.kind }; } });
  protos[k.kind] = freeze(proto);
}
const handles = new Map();
const handle = (ref) => {
  if (ref === null) return undefined;
  let h = handles.get(ref[0]);
  if (h === undefined) {
    h = create(protos[ref[1]], { id: { value: ref[0], enumerable: true }, kind: { value: ref[1], enumerable: true } });
    freeze(h);
    handles.set(ref[0], h);
  }
  return h;
};
const idOf = (x) => (typeof x === "string" ? x : x !== null && typeof x === "object" ? x.id : x);
const game = freeze({
  spawn(kind, init) { return handle(call("spawn", [kind, init === undefined ? {} : init])); },
  get(id) { return handle(call("get", [idOf(id)])); },
  find(kind) { const refs = call("find", [kind]); const out = []; for (let i = 0; i < refs.length; i++) out[i] = handle(refs[i]); return out; },
  destroy(object) { call("destroy", [idOf(object)]); handles.delete(idOf(object)); },
});
defineProperty(globalThis, "game", { value: game, writable: false, configurable: false, enumerable: false });
})`;
}
