import { z } from "zod";
import { parseChannel } from "../domain/chat-channel.js";
import { CHAT_LINES_MAX, CHAT_TEXT_MAX, chatTextRule, CLIENT_MESSAGE_ID_MAX, CLIENT_MESSAGE_ID_PATTERN, normalizeChatText } from "../domain/chat-text.js";
import { utf8Length } from "../domain/datastore-budget.js";
import { JSON_DEPTH_MAX, JSON_DEPTH_RULE, jsonValueDepth } from "../json/json-depth.js";

/*
 * Client → server frames of the realtime connection, described once: the
 * server validates every frame against these before any handler runs,
 * docs/realtime.md is generated from them, and the client's types derive
 * from them. Unknown fields are ignored, as in API requests.
 */

/** The largest client frame, in bytes (the WebSocket layer closes a larger one with 1009). */
export const REALTIME_FRAME_MAX_BYTES = 64 * 1024;
/** The largest `data` of a `signal`, as JSON: SDP offers with many candidates fit. */
export const SIGNAL_DATA_MAX_BYTES = 16 * 1024;

/** A required string field of at most `max` characters. */
const text = (max: number) =>
  z.string({ error: (issue) => (issue.input === undefined ? "required" : "must be a string") })
    .min(1, { error: "required", abort: true })
    .max(max, { error: `at most ${max} characters` });

/** A field of any JSON value: required, nested at most JSON_DEPTH_MAX levels, at most `maxBytes` as JSON. */
const jsonData = (maxBytes: number) =>
  z.unknown()
    .refine((value) => value !== undefined, { error: "required", abort: true })
    // Measured without recursion before JSON.stringify walks it (recursively) for its size.
    .refine((value) => jsonValueDepth(value, JSON_DEPTH_MAX) <= JSON_DEPTH_MAX, { error: JSON_DEPTH_RULE, abort: true })
    .refine((value) => utf8Length(JSON.stringify(value)) <= maxBytes, { error: `at most ${maxBytes} bytes as JSON` })
    .describe("any JSON value");

export const AuthFrame = z.object({
  type: z.literal("auth"),
  token: text(4096).describe("an account or guest access token"),
}).meta({
  id: "AuthFrame",
  description: "The first frame, within 10 s (`ready` answers it); later again with a fresh token of the same user, to renew (another user's token closes with 4001).",
});

export const PingFrame = z.object({
  type: z.literal("ping"),
}).meta({ id: "PingFrame", description: "Answered with `pong`." });

export const ChatSendFrame = z.object({
  type: z.literal("chat_send"),
  channel: text(200)
    .refine((channel) => parseChannel(channel) !== null, { error: "dm:<userId>, group:<id> or session:<id>" }),
  text: z.string({ error: (issue) => (issue.input === undefined ? "required" : "must be a string") })
    .overwrite(normalizeChatText)
    .superRefine((value, ctx) => {
      const rule = chatTextRule(value);
      if (rule !== null) ctx.addIssue({ code: "custom", message: rule, input: value });
    })
    .describe(`1 to ${CHAT_TEXT_MAX} characters after trimming (CRLF read as LF), at most ${CHAT_LINES_MAX} lines, no control characters`),
  clientMessageId: text(CLIENT_MESSAGE_ID_MAX)
    .regex(CLIENT_MESSAGE_ID_PATTERN, { error: "printable ASCII without spaces" })
    .describe("the client's id of the message: a resend with the same id is stored and delivered once"),
}).meta({
  id: "ChatSendFrame",
  description: "Stored once per `clientMessageId` and delivered as `chat_message`; `chat_ack` answers it, or `error` with its `clientMessageId` ([chat.md](chat.md)).",
});

export const SignalFrame = z.object({
  type: z.literal("signal"),
  sessionId: text(64),
  to: text(64).describe("the user id of another member of the session"),
  data: jsonData(SIGNAL_DATA_MAX_BYTES),
}).meta({
  id: "SignalFrame",
  description: "Peer-tier WebRTC signalling: relayed as `signal` only when the sender and `to` are both members of `sessionId` (else `error` `not_found`, the same whether the session or the member is missing).",
});

/** Every client frame schema, in the order docs list them. */
export const CLIENT_FRAME_SCHEMAS = [AuthFrame, PingFrame, ChatSendFrame, SignalFrame] as const;

/** Every client frame schema by its `type`. A Map: the type is the client's string. */
export const CLIENT_FRAMES: ReadonlyMap<string, (typeof CLIENT_FRAME_SCHEMAS)[number]> = new Map(
  CLIENT_FRAME_SCHEMAS.map((schema) => [schema.shape.type.value, schema]),
);

/** Any client frame, as validated (chat text normalised). */
export type ClientFrame = z.output<(typeof CLIENT_FRAME_SCHEMAS)[number]>;
/** What a client sends: any client frame as the schemas take it. */
export type ClientFrameInput = z.input<(typeof CLIENT_FRAME_SCHEMAS)[number]>;
/** Client frames by type, as validated. */
export type ClientFrameMap = { [F in ClientFrame as F["type"]]: F };
