import type { FieldShape, MessageShape, ShapeTable } from "./wire-shape.js";

/*
 * The proto3 JSON mapping, driven by wire shapes. No zod here: the client
 * imports this file alone (`@playfield/core/wire`).
 */

type Json = unknown;
type JsonObject = Record<string, Json>;

const isObject = (v: Json): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** Map entries minus `__proto__`, which plain assignment would turn into a prototype. */
const entries = (v: JsonObject) => Object.entries(v).filter(([k]) => k !== "__proto__");

// Field names come from the shapes alone (a bounded set), and every call reads each absent field by its snake_case name: work each out once.
const snakeNames = new Map<string, string>();

function snake(name: string): string {
  let snaked = snakeNames.get(name);
  if (snaked === undefined) {
    snaked = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    snakeNames.set(name, snaked);
  }
  return snaked;
}

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function readField(table: ShapeTable, shape: FieldShape, value: Json): Json {
  switch (shape.kind) {
    case "scalar":
      if (typeof value === "string") {
        // int64 is a JSON string by the mapping; int32 and double may be too.
        if ((shape.type === "int64" || shape.type === "int32") && INTEGER.test(value)) return Number(value);
        if (shape.type === "double" && NUMBER.test(value)) return Number(value);
      }
      return value;
    case "enum":
      // Enum values may arrive as their number; zod then checks the name.
      if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value < shape.values.length) return shape.values[value];
      return value;
    case "message": {
      const message = table[shape.name];
      return message && isObject(value) ? readMessage(table, message, value) : value;
    }
    case "list":
      return Array.isArray(value) ? value.map((item) => readField(table, shape.item, item)) : value;
    case "map": {
      if (!isObject(value)) return value;
      const out: JsonObject = {};
      for (const [k, v] of entries(value)) out[k] = readField(table, shape.value, v);
      return out;
    }
  }
}

/**
 * Reads a request object: takes each known field by its camelCase or
 * snake_case name, drops unknown ones and `null`s (a null field reads as its
 * default), and turns int64 strings into numbers. Validation is zod's job.
 */
export function readMessage(table: ShapeTable, message: MessageShape, json: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const field of message.fields) {
    let value = json[field.name];
    if (value === undefined) value = json[snake(field.name)];
    if (value === undefined || value === null) continue;
    out[field.name] = readField(table, field.shape, value);
  }
  return out;
}

function isDefault(shape: FieldShape, value: Json): boolean {
  switch (shape.kind) {
    case "scalar": return value === "" || value === 0 || value === false;
    case "enum": return value === shape.values[0];
    case "list": return Array.isArray(value) && value.length === 0;
    case "map": return isObject(value) && Object.keys(value).length === 0;
    case "message": return false;
  }
}

function writeField(table: ShapeTable, shape: FieldShape, value: Json): Json {
  switch (shape.kind) {
    case "scalar":
      return shape.type === "int64" && typeof value === "number" ? String(value) : value;
    case "enum":
      return value;
    case "message": {
      const message = table[shape.name];
      return message && isObject(value) ? writeMessage(table, message, value) : value;
    }
    case "list":
      return (value as Json[]).map((item) => writeField(table, shape.item, item));
    case "map": {
      const out: JsonObject = {};
      for (const [k, v] of entries(value as JsonObject)) out[k] = writeField(table, shape.value, v);
      return out;
    }
  }
}

/** Writes a response object: camelCase names, int64 as decimal strings, default values left out. */
export function writeMessage(table: ShapeTable, message: MessageShape, value: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const field of message.fields) {
    const v = value[field.name];
    if (v === undefined || v === null) continue;
    if (!field.optional && isDefault(field.shape, v)) continue;
    out[field.name] = writeField(table, field.shape, v);
  }
  return out;
}

function defaultOf(shape: FieldShape): Json {
  switch (shape.kind) {
    case "scalar": return shape.type === "bool" ? false : shape.type === "string" || shape.type === "bytes" ? "" : 0;
    case "enum": return shape.values[0];
    case "list": return [];
    case "map": return {};
    case "message": return undefined;
  }
}

/**
 * Reads a response object into the shape its TypeScript type promises: every
 * missing field at its default, int64 as numbers, unknown fields dropped.
 */
export function fillMessage(table: ShapeTable, message: MessageShape, json: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const field of message.fields) {
    let value = json[field.name];
    if (value === undefined) value = json[snake(field.name)];
    if (value === undefined || value === null) {
      if (!field.optional) out[field.name] = defaultOf(field.shape);
      continue;
    }
    out[field.name] = fillField(table, field.shape, value);
  }
  return out;
}

function fillField(table: ShapeTable, shape: FieldShape, value: Json): Json {
  switch (shape.kind) {
    case "message": {
      const message = table[shape.name];
      return message && isObject(value) ? fillMessage(table, message, value) : value;
    }
    case "list":
      return Array.isArray(value) ? value.map((item) => fillField(table, shape.item, item)) : [];
    case "map": {
      const out: JsonObject = {};
      if (isObject(value)) for (const [k, v] of entries(value)) out[k] = fillField(table, shape.value, v);
      return out;
    }
    default:
      return readField(table, shape, value);
  }
}
