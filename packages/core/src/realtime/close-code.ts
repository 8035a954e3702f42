/*
 * The close codes of the realtime connection: what the server (or the
 * WebSocket layer under it) closes a connection with, and what a client does
 * about each. No zod here: the client imports this file through
 * `@playfield/core/wire`.
 */

/** The codes a realtime connection is closed with (4000-4999: the application's range). */
export const RealtimeCloseCode = {
  /** No `auth` message in time. */
  AuthTimeout: 4000,
  /** The token was refused, or the device was signed out: get a fresh token and connect again. */
  Unauthenticated: 4001,
  /** A frame that is not a JSON object with a string `type`, or a first frame other than a valid `auth`. */
  BadFrame: 4002,
  /** The client did not read its messages fast enough. */
  TooSlow: 4008,
  /** The client sent frames faster than the connection's frame limit (`maxFrames`). */
  TooManyFrames: 4029,
  /** The server is shutting down or restarting ("Service Restart"): connect again, to another process or to this one once it is back. */
  ServiceRestart: 1012,
  /** A frame over the size limit (the WebSocket layer's own code). */
  TooBig: 1009,
  /** A frame that breaks the WebSocket protocol: unmasked, reserved bits or opcodes, a bad control frame (the layer's own code). */
  ProtocolError: 1002,
  /** A text frame that is not UTF-8 (the layer's own code). */
  InvalidText: 1007,
} as const;
export type RealtimeCloseCode = (typeof RealtimeCloseCode)[keyof typeof RealtimeCloseCode];

/** When each close code is sent, and what a client does then: the table of docs/realtime.md. */
export const REALTIME_CLOSE_CODE_DOCS: Readonly<Record<RealtimeCloseCode, { when: string; client: string }>> = {
  4000: { when: "no `auth` in time (10 s)", client: "connect again" },
  4001: { when: "token refused (reason: `unauthenticated: …`), or the device was signed out later", client: "refresh the token, connect again; stop if the refresh is refused" },
  4002: {
    when: "a frame that is not JSON text of an object with a string `type` (not JSON, a binary frame, nested deeper than 32 levels), or a first frame that is not a valid `auth`; the reason names the rule",
    client: "fix the client",
  },
  4008: { when: "the client did not read its messages (see *Backpressure*)", client: "connect again" },
  4029: {
    when: "the client sent frames faster than the connection's frame limit (`maxFrames`, default 100 at once, then 50 a second, any type counted), or more than a burst's worth of frames wait for a slow one (see *Order*)",
    client: "slow down, connect again",
  },
  1012: { when: "the server is shutting down or restarting (graceful shutdown, see configuration.md)", client: "connect again (after the backoff, so a restart's clients do not all come back at once)" },
  1009: { when: "a frame over 64 KiB (sent by the WebSocket layer itself, before the frame is read)", client: "fix the client" },
  1002: { when: "a frame that breaks the WebSocket protocol (unmasked, reserved bits or opcodes set, a fragmented or over-long control frame; sent by the WebSocket layer itself)", client: "fix the client (or its WebSocket library)" },
  1007: { when: "a text frame that is not valid UTF-8 (sent by the WebSocket layer itself)", client: "fix the client" },
};
