import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { RealtimeCloseCode } from "@playfield/core";
import { startServer } from "@playfield/server-memory";
import { openSocket } from "./realtime-sockets.js";

/*
 * The close codes the WebSocket layer sends itself, before a frame reaches
 * the endpoint (docs/realtime.md, the close-code table): 1002 for a frame
 * that breaks the protocol, 1007 for a text frame that is not UTF-8, 1009
 * for a frame over 64 KiB; and a connection that never answers a ping cut
 * (docs/realtime.md, "Liveness"). Over a raw TCP socket, since a WebSocket
 * client library refuses to send such frames and answers pings by itself.
 */

/** A socket upgraded to a WebSocket at /realtime, and the bytes the server sends after the upgrade. */
async function upgraded(port: number): Promise<{ socket: Socket; received: () => Buffer }> {
  const socket = connect(port, "127.0.0.1");
  let buffer = Buffer.alloc(0);
  let upgradedAt = -1;
  socket.on("data", (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    if (upgradedAt === -1) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end !== -1) upgradedAt = end + 4;
    }
  });
  socket.on("error", () => undefined);
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write("GET /realtime HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
  await expect.poll(() => upgradedAt, { timeout: 5_000 }).toBeGreaterThan(0);
  expect(buffer.toString("latin1", 0, 12)).toBe("HTTP/1.1 101");
  return { socket, received: () => buffer.subarray(upgradedAt) };
}

/** A client frame: FIN, the opcode and flags of `first`, masked with a zero mask. */
function frame(first: number, payload: Buffer, declaredLength = payload.length): Buffer {
  const length = declaredLength < 126 ? Buffer.from([0x80 | declaredLength])
    : declaredLength < 65536 ? Buffer.from([0x80 | 126, declaredLength >> 8, declaredLength & 0xff])
      : Buffer.concat([Buffer.from([0x80 | 127]), (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(declaredLength)); return b; })()]);
  return Buffer.concat([Buffer.from([first]), length, Buffer.alloc(4), payload]);
}

/** The code of the close frame the server sent (after any ping: the server pings new connections too). */
async function closeCode(received: () => Buffer): Promise<number> {
  const closeFrame = () => {
    const bytes = received();
    // Server frames are unmasked, and the ones sent here (ping, close) short: a header of two bytes, then the payload.
    for (let at = 0; at + 2 <= bytes.length; at += 2 + (bytes[at + 1]! & 0x7f)) {
      if (bytes[at] === 0x88 && at + 4 <= bytes.length) return bytes.readUInt16BE(at + 2);
    }
    return undefined;
  };
  await expect.poll(closeFrame, { timeout: 5_000 }).toBeDefined();
  return closeFrame()!;
}

describe("close codes of the WebSocket layer", () => {
  it("should close a frame breaking the protocol with 1002, a text frame that is not UTF-8 with 1007, a frame over 64 KiB with 1009", async () => {
    const server = await startServer({ port: 0 });
    try {
      const port = Number(new URL(server.url).port);
      // RSV1 set with no extension agreed.
      const protocol = await upgraded(port);
      protocol.socket.write(frame(0x80 | 0x40 | 0x1, Buffer.from("{}")));
      expect(await closeCode(protocol.received)).toBe(RealtimeCloseCode.ProtocolError);
      // 0xff is never UTF-8.
      const utf8 = await upgraded(port);
      utf8.socket.write(frame(0x80 | 0x1, Buffer.from([0x7b, 0xff, 0x7d])));
      expect(await closeCode(utf8.received)).toBe(RealtimeCloseCode.InvalidText);
      // The length alone is over the limit: the layer closes before any payload.
      const big = await upgraded(port);
      big.socket.write(frame(0x80 | 0x1, Buffer.alloc(0), 64 * 1024 + 1));
      expect(await closeCode(big.received)).toBe(RealtimeCloseCode.TooBig);
      for (const s of [protocol, utf8, big]) s.socket.destroy();
    } finally {
      await server.close();
    }
  });
});

describe("liveness", () => {
  it("should cut a connection that does not answer the server's pings, and keep one that does", async () => {
    const server = await startServer({ port: 0, websocket: { pingIntervalMs: 100 } });
    try {
      const port = Number(new URL(server.url).port);
      // A raw socket answers nothing; the ws client below answers pings by itself.
      const silent = await upgraded(port);
      const ended = new Promise<number>((resolve) => silent.socket.once("close", () => resolve(performance.now())));
      const answering = await openSocket(server.url);
      const started = performance.now();
      // Pinged within an interval, cut at its next turn: two intervals, and slack for a loaded machine.
      expect(await ended - started).toBeLessThan(2 * 100 + 1_000);
      expect(silent.received()[0]).toBe(0x89);
      expect(answering.ws.readyState).toBe(answering.ws.OPEN);
      answering.ws.close();
    } finally {
      await server.close();
    }
  });
});
