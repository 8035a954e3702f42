import fc from "fast-check";
import { describe, expect, expectTypeOf, it } from "vitest";
import { JSON_DEPTH_MAX } from "../src/json/json-depth.js";
import { CLIENT_FRAME_SCHEMAS, SIGNAL_DATA_MAX_BYTES, SignalFrame, type ClientFrameMap } from "../src/realtime/client-frames.js";
import { readClientFrame, type FrameReading } from "../src/realtime/read-client-frame.js";
import { SERVER_EVENTS, type ServerEventMap } from "../src/realtime/server-events.js";
import { PROTOTYPE_NAMES } from "./support/prototype-names.js";

const read = (frame: unknown) => readClientFrame(JSON.stringify(frame));
const refusal = (reading: FrameReading) => (reading.kind === "refused" ? reading.error.rawMessage : `not refused: ${JSON.stringify(reading)}`);
const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

describe("readClientFrame", () => {
  it("should read each valid frame, with chat text normalised", () => {
    expect(read({ type: "ping" })).toEqual({ kind: "frame", frame: { type: "ping" } });
    expect(read({ type: "auth", token: "t", extra: 1 })).toEqual({ kind: "frame", frame: { type: "auth", token: "t" } });
    expect(read({ type: "chat_send", channel: "dm:u1", text: " hi\r\nyou ", clientMessageId: "c-1" }))
      .toEqual({ kind: "frame", frame: { type: "chat_send", channel: "dm:u1", text: "hi\nyou", clientMessageId: "c-1" } });
    expect(read({ type: "signal", sessionId: "s", to: "u2", data: { sdp: "x" } }))
      .toEqual({ kind: "frame", frame: { type: "signal", sessionId: "s", to: "u2", data: { sdp: "x" } } });
  });

  it("should call a frame malformed when it is not a JSON object with a string type", () => {
    for (const text of ["", "{", "nope", "[]", "null", "7", "\"ping\"", "{}", '{"type":7}', '{"type":null}']) {
      expect(readClientFrame(text).kind, text).toBe("malformed");
    }
  });

  it("should call a frame nested too deep malformed without parsing it, at any depth", () => {
    expect(readClientFrame(`{"type":"signal","data":${nested(1_000_000)}}`)).toEqual({ kind: "malformed", reason: `a frame's values nest at most ${JSON_DEPTH_MAX} levels` });
  });

  it("should refuse an unknown type, prototype property names included, naming `type`", () => {
    for (const type of ["chat", "", ...PROTOTYPE_NAMES]) {
      expect(refusal(read({ type })), type).toMatch(/^type: unknown message type /);
    }
  });

  it("should take a clientMessageId of 1 to 64 printable ASCII characters, and name the rule it breaks", () => {
    const withId = (clientMessageId: unknown) => read({ type: "chat_send", channel: "dm:u1", text: "hi", clientMessageId });
    expect(withId("c-1:2")).toMatchObject({ kind: "frame" });
    expect(withId("x".repeat(64))).toMatchObject({ kind: "frame" });
    expect(refusal(withId(""))).toBe("clientMessageId: required");
    expect(refusal(withId(7))).toBe("clientMessageId: must be a string");
    expect(refusal(withId("x".repeat(65)))).toBe("clientMessageId: at most 64 characters");
    expect(refusal(withId("a b"))).toBe("clientMessageId: printable ASCII without spaces");
  });

  it("should refuse a field breaking its rule, naming the field, and echo the clientMessageId", () => {
    expect(refusal(read({ type: "auth" }))).toBe("token: required");
    expect(refusal(read({ type: "auth", token: 5 }))).toBe("token: must be a string");
    expect(refusal(read({ type: "chat_send", channel: "dm:u1", text: "hi" }))).toBe("clientMessageId: required");
    expect(refusal(read({ type: "chat_send", channel: "room", text: "hi", clientMessageId: "c" }))).toBe("channel: dm:<userId>, group:<id> or session:<id>");
    expect(refusal(read({ type: "chat_send", channel: "dm:u1", text: "  ", clientMessageId: "c" }))).toBe("text: required");
    expect(refusal(read({ type: "chat_send", channel: "dm:u1", text: "a\u0000", clientMessageId: "c" }))).toBe("text: no control characters");
    expect(read({ type: "chat_send", channel: "dm:u1", text: 5, clientMessageId: "c-9" })).toMatchObject({ kind: "refused", about: "chat_send", clientMessageId: "c-9" });
    expect(refusal(read({ type: "signal", sessionId: "s", to: "u" }))).toBe("data: required");
    expect(refusal(read({ type: "signal", sessionId: "s", to: "u", data: "x".repeat(SIGNAL_DATA_MAX_BYTES) }))).toBe(`data: at most ${SIGNAL_DATA_MAX_BYTES} bytes as JSON`);
    // Deeper data makes the frame itself too deep (malformed, above); the schema alone says the same of the field.
    const deep = SignalFrame.safeParse({ type: "signal", sessionId: "s", to: "u", data: JSON.parse(nested(JSON_DEPTH_MAX + 1)) });
    expect(deep.error?.issues).toMatchObject([{ path: ["data"], message: `at most ${JSON_DEPTH_MAX} levels of nesting` }]);
    expect(readClientFrame(`{"type":"signal","sessionId":"s","to":"u","data":${nested(JSON_DEPTH_MAX)}}`).kind).toBe("frame");
  });

  it("should never throw, and name a field of the frame's schema (or `type`) in every refusal", () => {
    const fields = new Set(CLIENT_FRAME_SCHEMAS.flatMap((schema) => Object.keys(schema.shape)));
    const types = fc.constantFrom(...CLIENT_FRAME_SCHEMAS.map((s) => s.shape.type.value), ...PROTOTYPE_NAMES, "x");
    const value = fc.oneof(fc.jsonValue(), fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 600 }));
    const frame = fc.record({ type: types, fields: fc.dictionary(fc.constantFrom(...fields, ...PROTOTYPE_NAMES), value) })
      .map(({ type, fields: rest }) => JSON.stringify({ ...rest, type }));
    fc.assert(fc.property(fc.oneof(frame, fc.string(), fc.jsonValue().map((v) => JSON.stringify(v))), (text) => {
      const reading = readClientFrame(text);
      if (reading.kind === "refused") {
        const field = /^([A-Za-z_]+)/.exec(reading.error.rawMessage)?.[1];
        expect(field === "frame" || fields.has(field!), reading.error.rawMessage).toBe(true);
      }
    }), { numRuns: 500 });
  });
});

describe("the realtime event types", () => {
  it("should derive client frames and server events by type from the schemas", () => {
    expectTypeOf<ClientFrameMap["chat_send"]>().toEqualTypeOf<{ type: "chat_send"; channel: string; text: string; clientMessageId: string }>();
    expectTypeOf<ServerEventMap["ready"]>().toEqualTypeOf<{ type: "ready"; userId: string }>();
    expect([...SERVER_EVENTS.keys()].sort()).toEqual(["chat_ack", "chat_message", "error", "game_invite", "pong", "presence", "ready", "session_members", "signal"]);
  });
});
