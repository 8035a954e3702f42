/**
 * The proto3 JSON codec alone, with no zod: what a client needs at run time.
 * @module
 */
export { readMessage, writeMessage, fillMessage } from "./codec.js";
export type { FieldShape, FieldInfo, MessageShape, ShapeTable, ScalarType } from "./wire-shape.js";
