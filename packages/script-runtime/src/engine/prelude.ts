import { MAX_STATE_DEPTH } from "../state/binary-state.js";
import { MAX_TEXT_CHARS } from "../runtime/bounded-text.js";

/**
 * The sandbox prelude: JavaScript that runs in each script's QuickJS context
 * before the script. It closes every door to nondeterminism and code
 * generation, installs the simulated clock, timers and seeded randomness,
 * wraps built-ins whose work is hidden from the interpreter's counter so that
 * they charge fuel, and returns the functions the host drives the script
 * with. Nothing of it stays reachable from the script's global scope.
 *
 * Called as `prelude(charge, log, seedA, seedB, seedC, seedD, epochMs, bigInts)`.
 */
export const PRELUDE_SOURCE = String.raw`(function (hostCharge, hostLog, seedA, seedB, seedC, seedD, epochMs, bigInts) {
"use strict";
const G = globalThis;
const O = Object;
const defineProperty = O.defineProperty;
const getPrototypeOf = O.getPrototypeOf;
const getOwnDescriptor = O.getOwnPropertyDescriptor;
const objectKeys = O.keys;
const create = O.create;
const ObjectProto = O.prototype;
const isArray = Array.isArray;
const apply = Reflect.apply;
const construct = Reflect.construct;
const stringify = JSON.stringify;
const parse = JSON.parse;
const pushArray = Array.prototype.push;
const spliceArray = Array.prototype.splice;
const joinArray = Array.prototype.join;
const PromiseCtor = Promise;
const promiseThen = PromiseCtor.prototype.then;
const isFiniteNumber = Number.isFinite;
const StringCtor = String;
const ErrorCtor = Error;
const mathFloor = Math.floor;
const mathLog2 = Math.log2;
const mathTrunc = Math.trunc;
const sliceString = StringCtor.prototype.slice;
const trimString = StringCtor.prototype.trim;
const regexExec = RegExp.prototype.exec;
// Messages are cut here before the host reads them (the host cuts them
// again to MAX_TEXT_CHARS, with a marker): a thrown message of megabytes
// never crosses.
const MAX_TEXT = ${2 * MAX_TEXT_CHARS};
const cut = (text) => (text.length > MAX_TEXT ? apply(sliceString, text, [0, MAX_TEXT]) : text);

const hide = (obj, key, value) => defineProperty(obj, key, { value, writable: true, configurable: true, enumerable: false });

// --- no code generation from strings ---------------------------------------
const refuse = function Function() { throw new EvalError("code generation from strings is disabled in scripts"); };
for (const fn of [function () {}, async function () {}, function* () {}, async function* () {}]) {
  defineProperty(getPrototypeOf(fn), "constructor", { value: refuse, writable: false, configurable: false, enumerable: false });
}
refuse.prototype = getPrototypeOf(function () {});
hide(G, "Function", refuse);
delete G.eval;
// GC-observable objects would make results depend on when the collector runs.
delete G.WeakRef;
delete G.FinalizationRegistry;

// --- fuel for work hidden in built-ins --------------------------------------
// Fuel per element or character touched, from measured costs (a fuel unit
// is about one interpreted branch, ~4 ns): scans cost 1, work that builds
// strings, arrays or objects costs 8. Calls touching fewer than 64 units are
// covered by the call's own poll.
//
// What a call will touch is charged before it runs, from the length of its
// receiver and arguments as the built-in reads it (ToLength: an array-like
// { length: 2 ** 53 - 1 } asks for that much): native code never polls the
// meter, so a call charged after it ran could run for ever first. A call
// that asks for more than the fuel left does not run: the meter is spent
// and the call throws (the interrupt that follows cannot be caught). What
// the call built is charged after it, by the size of its result.
const MAX_LENGTH = 9007199254740991;
const RangeErrorCtor = RangeError;
const lengthOf = (v) => {
  if (typeof v === "string") return v.length;
  if (v === null || (typeof v !== "object" && typeof v !== "function")) return 0;
  const n = +v.length;
  return n > 0 ? (n < MAX_LENGTH ? mathFloor(n) : MAX_LENGTH) : 0;
};
const sizeOf = (v) => (typeof v === "string" ? v.length : (v !== null && typeof v === "object" && typeof v.length === "number") ? v.length : 0);
const chargeUnits = (fuel) => { if (fuel >= 64) hostCharge(fuel); };
/** Charges work about to be done; a budget it spends stops the call before it starts. */
const chargeFirst = (fuel) => {
  if (fuel >= 64 && hostCharge(fuel)) throw new RangeErrorCtor("out of fuel");
};
const linear = (factor) => (self, args) => {
  let work = lengthOf(self);
  for (let i = 0; i < args.length && i < 4; i++) work += sizeOf(args[i]);
  return work * factor;
};
const nlogn = (self) => { const n = lengthOf(self); return n < 2 ? n : 8 * n * (mathLog2(n) + 1); };
const charged = (target, names, cost, factor) => {
  for (const name of names) {
    const original = target[name];
    if (typeof original !== "function") continue;
    const wrapped = { [name](...args) {
      chargeFirst(cost(this, args));
      const result = apply(original, this, args);
      if (factor > 0) chargeUnits(factor * sizeOf(result));
      return result;
    } }[name];
    hide(target, name, wrapped);
  }
};
const SCAN = linear(1);
const BUILD = linear(8);
// Calling back for each element is charged by the calls; walking the holes
// of a sparse array (or an array-like's missing indices) is not, so it is a scan.
charged(Array.prototype, ["copyWithin", "fill", "includes", "indexOf", "lastIndexOf", "reverse", "shift", "unshift", "every", "filter", "forEach", "map", "reduce", "reduceRight", "some", "flatMap"], SCAN, 1);
charged(Array.prototype, ["concat", "flat", "join", "slice", "splice", "toLocaleString", "toReversed", "toSpliced", "toString", "with"], BUILD, 8);
charged(Array.prototype, ["sort", "toSorted"], nlogn, 0);
// Array.from(arrayLike) reads its length as well: ToLength of the source.
charged(Array, ["from"], (self, args) => 8 * lengthOf(args[0]), 8);
charged(Array, ["of"], BUILD, 8);
charged(String.prototype, ["at", "endsWith", "includes", "indexOf", "lastIndexOf", "localeCompare", "padEnd", "padStart", "repeat", "search", "startsWith", "trim", "trimEnd", "trimStart"], SCAN, 1);
charged(String.prototype, ["concat", "match", "matchAll", "normalize", "replace", "replaceAll", "slice", "split", "substr", "substring", "toLocaleLowerCase", "toLocaleUpperCase", "toLowerCase", "toUpperCase"], BUILD, 8);
charged(StringCtor, ["fromCharCode", "fromCodePoint", "raw"], BUILD, 8);
charged(JSON, ["parse", "stringify"], BUILD, 8);
// RegExp.prototype.exec is left as it is: split, replace and matchAll call
// it once per position or match, so a charge by its subject would be
// quadratic; they are charged by their own subject above, and backtracking
// as the engine checks in.
charged(O, ["assign", "entries", "getOwnPropertyNames", "keys", "values", "freeze", "seal"], (self, args) => (args[0] !== null && typeof args[0] === "object" ? 8 * sizeOf(objectKeys(args[0])) : 0), 8);
const TypedArrayProto = getPrototypeOf(Uint8Array.prototype);
charged(TypedArrayProto, ["copyWithin", "fill", "includes", "indexOf", "lastIndexOf", "reverse", "set", "slice", "with"], SCAN, 1);
charged(TypedArrayProto, ["join", "toLocaleString", "toReversed", "toString"], BUILD, 8);
charged(TypedArrayProto, ["sort", "toSorted"], nlogn, 0);
// Spreading an array copies it in a fast path that the counter never sees:
// making an iterator charges for the elements up front.
for (const proto of [Array.prototype, TypedArrayProto]) {
  const values = proto[Symbol.iterator];
  const wrapped = { values() { chargeFirst(8 * lengthOf(this)); return apply(values, this, []); } }.values;
  hide(proto, Symbol.iterator, wrapped);
  hide(proto, "values", wrapped);
}
// Typed arrays and buffers zero-fill what they allocate: charge by bytes.
for (const name of ["ArrayBuffer", "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"]) {
  const Original = G[name];
  if (typeof Original !== "function") continue;
  const Wrapped = { [name]: function (...args) {
    if (new.target === undefined) return apply(Original, undefined, args);
    const made = construct(Original, args, new.target === Wrapped ? Original : new.target);
    chargeUnits(made.byteLength);
    return made;
  } }[name];
  O.setPrototypeOf(Wrapped, getPrototypeOf(Original));
  for (const key of O.getOwnPropertyNames(Original)) {
    if (key !== "prototype" && key !== "length" && key !== "name") defineProperty(Wrapped, key, O.getOwnPropertyDescriptor(Original, key));
  }
  defineProperty(Wrapped, "prototype", { value: Original.prototype, writable: false });
  hide(Original.prototype, "constructor", Wrapped);
  hide(G, name, Wrapped);
}
// BigInt arithmetic and formatting run natively, a whole operation in one
// step the meter never sees (a multiply of two 300,000-bit numbers takes
// over a second): a script that may not have BigInt (a player's) finds no
// way to make one but a literal, which moderation refuses.
if (!bigInts) {
  delete G.BigInt;
  delete G.BigInt64Array;
  delete G.BigUint64Array;
  for (const key of ["getBigInt64", "getBigUint64", "setBigInt64", "setBigUint64"]) delete DataView.prototype[key];
}

// --- seeded randomness (sfc32) ----------------------------------------------
let ra = seedA | 0, rb = seedB | 0, rc = seedC | 0, rd = seedD | 0;
const random = function random() {
  ra >>>= 0; rb >>>= 0; rc >>>= 0; rd >>>= 0;
  let t = (ra + rb) | 0;
  ra = rb ^ (rb >>> 9);
  rb = (rc + (rc << 3)) | 0;
  rc = (rc << 21) | (rc >>> 11);
  rd = (rd + 1) | 0;
  t = (t + rd) | 0;
  rc = (rc + t) | 0;
  return (t >>> 0) / 4294967296;
};
for (let i = 0; i < 12; i++) random();
hide(Math, "random", random);

// --- simulated clock; local time is UTC -------------------------------------
let now = epochMs;
const RealDate = Date;
const DateProto = RealDate.prototype;
const realParse = RealDate.parse;
const realUTC = RealDate.UTC;
const hasZone = /(?:Z|GMT|UTC|[+-]\d\d:?\d\d)\s*(?:\(.*\))?$/i;
const dateOnly = /^[+-]?\d{4,6}(?:-\d\d(?:-\d\d)?)?$/;
const isoDateTime = /^[+-]?\d{4,6}-\d\d-\d\dT/i;
const matches = (re, s) => apply(regexExec, re, [s]) !== null;
// A text without a zone is read as UTC by giving it one: the engine's own
// local time is the host's time zone (and its gaps and overlaps at DST).
// The built-ins are the prelude's copies, so a script's own RegExp or
// String methods cannot steer a local text to the host's zone.
const parseUTC = (text) => {
  const s = apply(trimString, StringCtor(text), []);
  if (matches(hasZone, s) || matches(dateOnly, s)) return realParse(s);
  return realParse(matches(isoDateTime, s) ? s + "Z" : s + " GMT");
};
// new Date(value) with an object reads it as the spec's ToPrimitive does, so
// a text it answers is parsed here (as UTC), not by the engine.
const dateValueOf = DateProto.valueOf;
const toPrimitive = (v) => {
  try { return apply(dateValueOf, v, []); } catch (_) { /* not a Date */ }
  const exotic = v[Symbol.toPrimitive];
  if (exotic !== undefined && exotic !== null) return apply(exotic, v, ["default"]);
  for (const key of ["valueOf", "toString"]) {
    const method = v[key];
    if (typeof method === "function") {
      const p = apply(method, v, []);
      if (p === null || (typeof p !== "object" && typeof p !== "function")) return p;
    }
  }
  throw new TypeError("cannot convert the object to a date");
};
const SimDate = function Date(...args) {
  if (new.target === undefined) return new SimDate().toString();
  let made;
  if (args.length === 0) made = new RealDate(now);
  else if (args.length >= 2) made = new RealDate(apply(realUTC, undefined, args));
  else {
    const v = args[0] !== null && (typeof args[0] === "object" || typeof args[0] === "function") ? toPrimitive(args[0]) : args[0];
    made = new RealDate(typeof v === "string" ? parseUTC(v) : v);
  }
  if (new.target !== SimDate) O.setPrototypeOf(made, new.target.prototype);
  return made;
};
SimDate.prototype = DateProto;
hide(SimDate, "now", function now_() { return now; });
hide(SimDate, "parse", function parse(text) { return parseUTC(text); });
hide(SimDate, "UTC", realUTC);
hide(DateProto, "constructor", SimDate);
for (const part of ["Date", "Day", "FullYear", "Hours", "Milliseconds", "Minutes", "Month", "Seconds"]) {
  hide(DateProto, "get" + part, DateProto["getUTC" + part]);
  if (part !== "Day") hide(DateProto, "set" + part, DateProto["setUTC" + part]);
}
hide(DateProto, "getTimezoneOffset", function getTimezoneOffset() { return 0; });
// Annex B's two-digit years, in UTC as the rest.
const getUTCFullYear = DateProto.getUTCFullYear;
const setUTCFullYear = DateProto.setUTCFullYear;
hide(DateProto, "getYear", function getYear() { return apply(getUTCFullYear, this, []) - 1900; });
hide(DateProto, "setYear", function setYear(year) {
  const y = +year;
  if (y !== y) return apply(setUTCFullYear, this, [y]);
  const whole = mathTrunc(y);
  return apply(setUTCFullYear, this, [whole >= 0 && whole <= 99 ? 1900 + whole : whole]);
});
const toISO = DateProto.toISOString;
const valueOf = DateProto.valueOf;
const utcText = function toString() {
  const t = apply(valueOf, this, []);
  return t !== t ? "Invalid Date" : apply(DateProto.toUTCString, this, []).replace("GMT", "GMT+0000 (Coordinated Universal Time)");
};
for (const name of ["toString", "toLocaleString"]) hide(DateProto, name, utcText);
hide(DateProto, "toDateString", function toDateString() { return apply(utcText, this, []).slice(0, 15); });
hide(DateProto, "toLocaleDateString", function toLocaleDateString() { return apply(toISO, this, []).slice(0, 10); });
hide(DateProto, "toTimeString", function toTimeString() { return apply(utcText, this, []).slice(16); });
hide(DateProto, "toLocaleTimeString", function toLocaleTimeString() { return apply(toISO, this, []).slice(11, 19); });
hide(G, "Date", SimDate);

// --- timers on the simulated clock ------------------------------------------
const timers = []; // sorted by due, then seq
let nextId = 1;
let seq = 0;
const insertTimer = (timer) => {
  let lo = 0, hi = timers.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const t = timers[mid];
    if (t.due < timer.due || (t.due === timer.due && t.seq < timer.seq)) lo = mid + 1; else hi = mid;
  }
  apply(spliceArray, timers, [lo, 0, timer]);
};
const addTimer = (fn, ms, args, repeat) => {
  if (typeof fn !== "function") throw new TypeError("timer callback must be a function");
  let delay = +ms;
  if (!(delay >= 0)) delay = 0;
  if (repeat && delay < 1) delay = 1; // an interval of 0 would never let the clock move
  const id = nextId++;
  insertTimer({ id, due: now + delay, seq: seq++, fn, args, every: repeat ? delay : 0 });
  return id;
};
const clearTimer = (id) => {
  for (let i = 0; i < timers.length; i++) if (timers[i].id === id) { apply(spliceArray, timers, [i, 1]); return; }
};
hide(G, "setTimeout", function setTimeout(fn, ms, ...args) { return addTimer(fn, ms, args, false); });
hide(G, "setInterval", function setInterval(fn, ms, ...args) { return addTimer(fn, ms, args, true); });
hide(G, "clearTimeout", function clearTimeout(id) { clearTimer(id); });
hide(G, "clearInterval", function clearInterval(id) { clearTimer(id); });
hide(G, "wait", function wait(ms) { return new PromiseCtor((resolve) => { addTimer(resolve, ms, [], false); }); });

// --- console ----------------------------------------------------------------
const show = (v) => { try { return typeof v === "string" ? v : stringify(v) ?? StringCtor(v); } catch { return "[unprintable]"; } };
const logLine = (level) => function (...args) {
  const parts = [];
  for (let i = 0; i < args.length && i < 16; i++) apply(pushArray, parts, [show(args[i])]);
  hostLog(level, apply(joinArray, parts, [" "]).slice(0, 1000));
};
hide(G, "console", { log: logLine("log"), info: logLine("info"), warn: logLine("warn"), error: logLine("error"), debug: logLine("debug") });

// --- state ------------------------------------------------------------------
// The host reads this.state as binary JSON after every handler. When it
// finds something that is not JSON data, check walks the state to say where.
const MAX_DEPTH = ${MAX_STATE_DEPTH};
class StateError extends ErrorCtor {}
// The objects and keys on the path being checked, by depth: cycles are
// found among the ancestors.
const ancestors = [];
const trail = [];
const pathTo = (depth) => {
  let path = "this.state";
  for (let i = 0; i < depth; i++) path += typeof trail[i] === "number" ? "[" + trail[i] + "]" : "." + trail[i];
  return path;
};
const notJson = (depth, what) => new StateError("this.state is not JSON data: " + pathTo(depth) + " is " + what);
const check = (v, depth) => {
  if (v === null) return;
  switch (typeof v) {
    case "string": case "boolean": return;
    case "number":
      if (!isFiniteNumber(v)) throw notJson(depth, StringCtor(v));
      return;
    case "object": {
      if (depth >= MAX_DEPTH) throw notJson(depth, "nested deeper than " + MAX_DEPTH + " levels");
      for (let i = 0; i < depth; i++) if (ancestors[i] === v) throw notJson(depth, "a cycle");
      ancestors[depth] = v;
      if (isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          trail[depth] = i;
          if (!(i in v)) throw notJson(depth + 1, "a hole");
          check(v[i], depth + 1);
        }
      } else {
        const proto = getPrototypeOf(v);
        if (proto !== ObjectProto && proto !== null) throw notJson(depth, "an object that is not plain data" + (typeof v.constructor === "function" && v.constructor.name ? " (" + v.constructor.name + ")" : ""));
        const keys = objectKeys(v);
        for (let i = 0; i < keys.length; i++) {
          trail[depth] = keys[i];
          check(v[keys[i]], depth + 1);
        }
      }
      ancestors[depth] = null;
      return;
    }
    default: throw notJson(depth, typeof v === "undefined" ? "undefined" : "a " + typeof v);
  }
};

// --- the script instance and its handlers -------------------------------------
let def = null;
let instance = null;
let current = "module";
const asyncFaults = [];
// A fault is described from data alone: own data properties, found along
// the prototype chain, never a getter, toString or toPrimitive of the
// script's. (A Proxy's traps still run: nothing tells a Proxy apart without
// one. The host calls describe on the script's remaining fuel.)
const inherits = (v, proto) => {
  for (let o = getPrototypeOf(v), i = 0; o !== null && i < 64; o = getPrototypeOf(o), i++) if (o === proto) return true;
  return false;
};
// An accessor is passed over for the next data property up the chain
// (an Error with a name getter reads as "Error").
const dataProperty = (v, key) => {
  for (let o = v, i = 0; o !== null && i < 64; o = getPrototypeOf(o), i++) {
    const d = getOwnDescriptor(o, key);
    if (d !== undefined && "value" in d) return d.value;
  }
  return undefined;
};
const textOf = (v) => (typeof v === "string" ? cut(v) : typeof v === "number" || typeof v === "boolean" ? StringCtor(v) : "");
const describe = (e) => {
  try {
    if (e !== null && (typeof e === "object" || typeof e === "function")) {
      if (!inherits(e, ErrorCtor.prototype)) return "threw a non-Error value: " + (typeof e === "object" ? "an object" : "a function");
      const message = textOf(dataProperty(e, "message"));
      return inherits(e, StateError.prototype) ? message : textOf(dataProperty(e, "name")) + ": " + message;
    }
    if (typeof e === "string") return "threw a non-Error value: " + stringify(apply(sliceString, e, [0, 200]));
    // A BigInt is not written out: formatting a huge one is work of its own.
    return "threw a non-Error value: " + (e === null ? "null" : typeof e === "bigint" ? "a bigint" : typeof e + " " + StringCtor(e));
  } catch (_) {
    return "threw a value that could not be described";
  }
};
const watch = (result, name) => {
  if (result instanceof PromiseCtor) apply(promiseThen, result, [undefined, (e) => { apply(pushArray, asyncFaults, [[name, e]]); }]);
};
const callHandler = (name, fn, args) => {
  current = name;
  watch(apply(fn, instance, args), name);
};
let ticking = false;
// onTick's argument list, reused: apply copies it into the call's frame.
const tickArgs = [0];
// The dt of the last quick tick, for the next one.
let tickDt = 0;
/**
 * The answer of a handler call: this.state itself, which the host writes as
 * binary JSON (native code) and reads as canonical JSON. An await that
 * faulted since is thrown instead. A state of undefined or a symbol is
 * refused here, since those values mean "nothing ran" and "a timer is due".
 */
const settle = () => {
  if (asyncFaults.length > 0) {
    const [name, e] = asyncFaults[0];
    asyncFaults.length = 0;
    current = name + " (after await)";
    throw e;
  }
  const state = instance.state;
  if (state === undefined || typeof state === "symbol") check(state, 0);
  return state;
};
/** quickTick's answer when a timer is due, so the host takes the long way. */
const TIMERS_DUE = Symbol("timers due");

/**
 * A tick without events in one call: TIMERS_DUE (nothing ran) when a
 * timer is due, so the host takes the long way; undefined when there is
 * no onTick; otherwise onTick runs and the state is the answer. Called
 * with no arguments, it is the tick after the last quick tick, by the same
 * dt (the host passes none: each would be an allocation in the engine).
 */
const quickTick = (simNow, dt) => {
  if (simNow === undefined) { simNow = now + tickDt; dt = tickDt; }
  if (timers.length > 0 && timers[0].due <= simNow) return TIMERS_DUE;
  now = simNow;
  tickDt = dt;
  if (!ticking) return undefined;
  // callHandler inlined: the fewer functions a tick runs, the less memory it touches.
  current = "onTick";
  tickArgs[0] = dt;
  const result = apply(def.onTick, instance, tickArgs);
  if (result instanceof PromiseCtor) watch(result, "onTick");
  return settle();
};

return {
  /** Makes the instance from the module's namespace; returns whether init ran. */
  attach(ns, stateJson, name) {
    const d = ns.default;
    def = d !== null && typeof d === "object" ? d : ns;
    instance = create(def);
    defineProperty(instance, "name", { __proto__: null, value: name, enumerable: false });
    if (stateJson !== undefined) { instance.state = parse(stateJson); return false; }
    instance.state = {};
    if (typeof def.init === "function") {
      current = "init";
      const initial = apply(def.init, instance, []);
      if (initial !== undefined) instance.state = initial;
    }
    return true;
  },
  onLoad(reloaded) {
    if (typeof def.onLoad === "function") callHandler("onLoad", def.onLoad, [{ reloaded }]);
    return settle();
  },
  /** Whether the script has onTick (asked once, after onLoad). */
  hasTick() { ticking = typeof def.onTick === "function"; return ticking; },
  quickTick,
  tick(simNow, dt) {
    now = simNow;
    callHandler("onTick", def.onTick, [dt]);
    return settle();
  },
  /** Fires the earliest timer due by upTo; returns the next due time or -1. */
  fireNext(upTo) {
    const timer = timers[0];
    if (timer !== undefined && timer.due <= upTo) {
      apply(spliceArray, timers, [0, 1]);
      now = timer.due;
      if (timer.every > 0) { timer.due += timer.every; timer.seq = seq++; insertTimer(timer); }
      current = "timer";
      watch(apply(timer.fn, undefined, timer.args), "timer");
    }
    return timers.length > 0 ? timers[0].due : -1;
  },
  nextDue() { return timers.length > 0 ? timers[0].due : -1; },
  setNow(simNow) { now = simNow; },
  event(simNow, eventName, dataJson) {
    now = simNow;
    const data = parse(dataJson);
    const on = def.on;
    const fn = on !== null && typeof on === "object" && typeof on[eventName] === "function" ? on[eventName]
      : typeof def.onEvent === "function" ? def.onEvent : undefined;
    if (fn === undefined) return undefined;
    callHandler("event " + eventName, fn, fn === def.onEvent ? [eventName, data] : [data]);
    return settle();
  },
  settle,
  /** Throws why this.state is not JSON data, naming where (the host found that it is not). */
  explain() { check(instance.state, 0); return ""; },
  /**
   * Puts the committed state back as the instance's own data property,
   * never through a setter of the script's (the descriptor has no
   * prototype, so no inherited get or set is read either).
   */
  restore(stateJson) {
    asyncFaults.length = 0;
    ancestors.length = 0;
    defineProperty(instance, "state", { __proto__: null, value: parse(stateJson), writable: true, enumerable: true, configurable: true });
  },
  current() { return current; },
  describe,
};
})`;
