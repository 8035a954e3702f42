/*
 * Index keys as bytes whose order (PostgreSQL compares bytea byte by byte,
 * a prefix first) is the order of core's `compareKeys`, so that one btree
 * on a bytea column serves every declared index, whatever its key function.
 *
 * Each element is self-delimiting and starts with a tag below END_OF_PREFIX:
 *   number: 0x01, then the float64 big-endian with the sign bit flipped
 *           (negative numbers: every bit flipped); -0 is written as 0.
 *   string: 0x02, then each UTF-16 code unit (JavaScript's `<` compares code
 *           units, not code points): unit u < 0x7F as one byte u + 1, any
 *           other as 0x80, high byte, low byte; then 0x00 to close it.
 * Numbers sort before strings by tag; a closed string sorts before its
 * extensions because 0x00 is below every unit's first byte; a key sorts
 * before its extensions because it is their prefix.
 */
import type { IndexKey } from "@playfield/core";

const NUMBER = 0x01;
const STRING = 0x02;
const STRING_END = 0x00;
const WIDE_UNIT = 0x80;

/**
 * A byte above every element's tag: `prefix ++ [END_OF_PREFIX]` sorts after
 * every key that starts with the encoded elements `prefix`, and before every
 * greater key that does not.
 */
export const END_OF_PREFIX = 0x03;

/** The bytes of an index key (or of its first elements: the encoding of a prefix is a prefix of the encoding). */
export function encodeKey(key: IndexKey): Uint8Array {
  const out = scratch.reset();
  for (const element of key) writeElement(out, element);
  return out.bytes();
}

/** `encodeKey(prefix)` followed by END_OF_PREFIX: the exclusive upper bound of the keys that start with `prefix`. */
export function encodePrefixEnd(prefix: IndexKey): Uint8Array {
  const out = scratch.reset();
  for (const element of prefix) writeElement(out, element);
  out.byte(END_OF_PREFIX);
  return out.bytes();
}

/** The key back from its bytes (for tests and diagnostics: the adapter never needs to decode). */
export function decodeKey(bytes: Uint8Array): IndexKey {
  const key: (string | number)[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let i = 0;
  while (i < bytes.length) {
    const tag = bytes[i++];
    if (tag === NUMBER) {
      const hi = view.getUint32(i), lo = view.getUint32(i + 4);
      const negative = (hi & 0x80000000) === 0;
      const raw = new DataView(new ArrayBuffer(8));
      raw.setUint32(0, negative ? ~hi >>> 0 : (hi ^ 0x80000000) >>> 0);
      raw.setUint32(4, negative ? ~lo >>> 0 : lo);
      key.push(raw.getFloat64(0));
      i += 8;
    } else if (tag === STRING) {
      const units: number[] = [];
      for (;;) {
        const b = bytes[i++];
        if (b === undefined) throw new RangeError("an encoded string is not closed");
        if (b === STRING_END) break;
        if (b === WIDE_UNIT) {
          units.push((bytes[i]! << 8) | bytes[i + 1]!);
          i += 2;
        } else {
          units.push(b - 1);
        }
      }
      key.push(String.fromCharCode(...units));
    } else {
      throw new RangeError(`no key element starts with byte ${tag}`);
    }
  }
  return key;
}

function writeElement(out: ByteWriter, element: string | number): void {
  if (typeof element === "number") {
    out.byte(NUMBER);
    out.float(element);
    return;
  }
  out.byte(STRING);
  for (let i = 0; i < element.length; i++) {
    const unit = element.charCodeAt(i);
    if (unit < 0x7f) {
      out.byte(unit + 1);
    } else {
      out.byte(WIDE_UNIT);
      out.byte(unit >>> 8);
      out.byte(unit & 0xff);
    }
  }
  out.byte(STRING_END);
}

/**
 * A growable byte buffer. One serves every encoding (`scratch`): encoding is
 * synchronous, and each key then costs one small copy instead of a new
 * buffer and view (array buffers cost the garbage collector far more than
 * their size: a transaction encodes a few keys per statement).
 */
class ByteWriter {
  private buffer = new Uint8Array(256);
  private view = new DataView(this.buffer.buffer);
  private length = 0;

  reset(): this {
    this.length = 0;
    return this;
  }

  byte(value: number): void {
    this.reserve(1);
    this.buffer[this.length++] = value;
  }

  float(value: number): void {
    this.reserve(8);
    // -0 === 0 for compareKeys: one encoding for both.
    this.view.setFloat64(this.length, value === 0 ? 0 : value);
    const hi = this.view.getUint32(this.length), lo = this.view.getUint32(this.length + 4);
    if (hi & 0x80000000) {
      this.view.setUint32(this.length, ~hi >>> 0);
      this.view.setUint32(this.length + 4, ~lo >>> 0);
    } else {
      this.view.setUint32(this.length, (hi | 0x80000000) >>> 0);
    }
    this.length += 8;
  }

  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }

  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + n));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
    this.view = new DataView(grown.buffer);
  }
}

const scratch = new ByteWriter();
