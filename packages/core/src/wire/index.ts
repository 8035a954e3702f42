/**
 * The proto3 JSON codec alone, with no zod: what a client needs at run time.
 * @module
 */
export { readMessage, writeMessage, fillMessage } from "./codec.js";
export type { FieldShape, FieldInfo, MessageShape, ShapeTable, ScalarType } from "./wire-shape.js";
// The error types too, so that a client can throw and test them with no zod.
export { Code, codeToHttpStatus, codeFromHttpStatus, isCode } from "../errors/code.js";
export { PlayfieldError, type FieldIssue } from "../errors/playfield-error.js";
export { toErrorJson, errorFromJson, type ErrorJson } from "../errors/error-json.js";
// The realtime close codes, so that a client reacts to them with no zod.
export { RealtimeCloseCode } from "../realtime/close-code.js";
