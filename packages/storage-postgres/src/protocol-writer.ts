/*
 * The extended protocol's messages of one write, encoded into one buffer
 * (PostgreSQL's frontend messages Parse, Bind, Describe, Execute and Sync,
 * as the protocol documentation lays them out). node-postgres makes a
 * buffer per message and writes each to the socket: a write of 5 BuyItems
 * is over a hundred messages, which cost the server more to make and to
 * hand to the socket than the statements' own bytes.
 */
import type { BindValue } from "./sql-statement.js";

/** Describe of the unnamed portal, Execute of it with no row limit, Sync: the same bytes each time. */
const DESCRIBE = Buffer.from([0x44, 0, 0, 0, 6, 0x50, 0]);
const EXECUTE = Buffer.from([0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0]);
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

/** One write's messages (a class: one per write, many calls each). */
export class ProtocolWriter {
  private buffer: Buffer;
  private at = 0;

  constructor(size = 4096) {
    this.buffer = Buffer.allocUnsafe(size);
  }

  /** Parse: `text` as the statement `name` ("": the unnamed one), its parameters' types left to PostgreSQL. */
  parse(name: string, text: string): void {
    const start = this.begin(0x50, name.length + 3 * text.length + 4);
    this.cstring(name);
    this.cstring(text);
    this.int16(0);
    this.end(start);
  }

  /** Bind of the statement `name` to the unnamed portal: text values as text, bytes in binary; every column as text. */
  bind(name: string, values: readonly BindValue[]): void {
    let room = name.length + 12 + 6 * values.length;
    for (const value of values) if (value !== null) room += typeof value === "string" ? 3 * value.length : value.length;
    const start = this.begin(0x42, room);
    this.cstring("");
    this.cstring(name);
    this.int16(values.length);
    for (const value of values) this.int16(value instanceof Uint8Array ? 1 : 0);
    this.int16(values.length);
    for (const value of values) {
      if (value === null) {
        this.int32(-1);
      } else if (typeof value === "string") {
        const lengthAt = this.at;
        this.at += 4;
        const bytes = this.buffer.write(value, this.at, "utf8");
        this.buffer.writeInt32BE(bytes, lengthAt);
        this.at += bytes;
      } else {
        this.int32(value.length);
        this.buffer.set(value, this.at);
        this.at += value.length;
      }
    }
    // One result format code for every column: text.
    this.int16(1);
    this.int16(0);
    this.end(start);
  }

  describe(): void {
    this.bytes(DESCRIBE);
  }

  execute(): void {
    this.bytes(EXECUTE);
  }

  sync(): void {
    this.bytes(SYNC);
  }

  /** The messages written, in one buffer. */
  finish(): Buffer {
    return this.buffer.subarray(0, this.at);
  }

  /** Starts a message of type `code` with room for `room` bytes more; answers where its length goes. */
  private begin(code: number, room: number): number {
    this.ensure(room + 5);
    this.buffer[this.at] = code;
    const start = this.at + 1;
    this.at += 5;
    return start;
  }

  private end(start: number): void {
    this.buffer.writeInt32BE(this.at - start, start);
  }

  private cstring(text: string): void {
    this.at += this.buffer.write(text, this.at, "utf8");
    this.buffer[this.at++] = 0;
  }

  private int16(value: number): void {
    this.buffer.writeInt16BE(value, this.at);
    this.at += 2;
  }

  private int32(value: number): void {
    this.buffer.writeInt32BE(value, this.at);
    this.at += 4;
  }

  private bytes(bytes: Buffer): void {
    this.ensure(bytes.length);
    bytes.copy(this.buffer, this.at);
    this.at += bytes.length;
  }

  private ensure(room: number): void {
    if (this.at + room <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + room));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
  }
}
