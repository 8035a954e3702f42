import { Code } from "../errors/code.js";
import { issuesToError } from "../errors/issues-to-error.js";
import { PlayfieldError } from "../errors/playfield-error.js";
import { JSON_DEPTH_MAX, jsonTextDepth } from "../json/json-depth.js";
import { CLIENT_FRAMES, type ClientFrame } from "./client-frames.js";

/**
 * What a client frame holds, read before any handler sees it:
 *
 * - `frame`: a valid frame of a known type;
 * - `malformed`: not a JSON object with a string `type` (the connection
 *   closes with 4002 and this reason);
 * - `refused`: a known shape with an unknown type or a field breaking its
 *   rule (answered with an `error` event: `about`, the error, and the
 *   frame's `clientMessageId` when it had one).
 */
export type FrameReading =
  | { kind: "frame"; frame: ClientFrame }
  | { kind: "malformed"; reason: string }
  | { kind: "refused"; about: string; error: PlayfieldError; clientMessageId?: string };

/** The longest `type` or `clientMessageId` echoed back in an `error`. */
const ECHO_MAX = 64;

/**
 * Reads one client text frame: the nesting first (one iterative pass, so
 * nothing later can overflow on it), then JSON, then the schema of its
 * type. Pure: never throws.
 *
 * @example
 * readClientFrame('{"type":"ping"}') // { kind: "frame", frame: { type: "ping" } }
 */
export function readClientFrame(text: string): FrameReading {
  // The frame object is one level; the values in it may nest JSON_DEPTH_MAX more.
  if (jsonTextDepth(text, JSON_DEPTH_MAX + 1) > JSON_DEPTH_MAX + 1) {
    return { kind: "malformed", reason: `a frame's values nest at most ${JSON_DEPTH_MAX} levels` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "malformed", reason: "a frame is JSON text" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value) || typeof (value as { type?: unknown }).type !== "string") {
    return { kind: "malformed", reason: "a frame is a JSON object with a string `type`" };
  }
  const raw = value as { type: string; clientMessageId?: unknown };
  const about = raw.type.slice(0, ECHO_MAX);
  const echo = typeof raw.clientMessageId === "string" ? { clientMessageId: raw.clientMessageId.slice(0, ECHO_MAX) } : {};
  const schema = CLIENT_FRAMES.get(raw.type);
  if (!schema) {
    return { kind: "refused", about, error: new PlayfieldError(Code.InvalidArgument, `type: unknown message type ${JSON.stringify(about)}`), ...echo };
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) return { kind: "refused", about, error: issuesToError(parsed.error.issues, "frame"), ...echo };
  return { kind: "frame", frame: parsed.data };
}
