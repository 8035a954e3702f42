/*
 * base64url without padding (RFC 4648 §5), written out so that the crypto
 * helpers run where Buffer is absent (browsers, workers).
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

/** The character code of each digit. */
const CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0));
/** Characters made per String.fromCharCode call: well within any engine's limit on arguments. */
const CHUNK = 8192;

/**
 * The base64url text of bytes, without padding, after `prefix` if given.
 * The characters' codes go to String.fromCharCode at once: one flat string,
 * where adding a character at a time made a string per step (and a rope of
 * them once past a dozen characters: an id kept two strings, not one).
 */
export function encodeBase64url(bytes: Uint8Array, prefix = ""): string {
  const n = bytes.length;
  const codes = new Array<number>(prefix.length + Math.ceil((n * 4) / 3));
  let j = 0;
  for (; j < prefix.length; j++) codes[j] = prefix.charCodeAt(j);
  for (let i = 0; i < n; i += 3) {
    const b0 = bytes[i]!, b1 = i + 1 < n ? bytes[i + 1]! : -1, b2 = i + 2 < n ? bytes[i + 2]! : -1;
    codes[j++] = CODES[b0 >> 2]!;
    codes[j++] = CODES[((b0 & 3) << 4) | (b1 < 0 ? 0 : b1 >> 4)]!;
    if (b1 >= 0) codes[j++] = CODES[((b1 & 15) << 2) | (b2 < 0 ? 0 : b2 >> 6)]!;
    if (b2 >= 0) codes[j++] = CODES[b2 & 63]!;
  }
  if (codes.length <= CHUNK) return String.fromCharCode.apply(null, codes);
  let out = "";
  for (let k = 0; k < codes.length; k += CHUNK) out += String.fromCharCode.apply(null, codes.slice(k, k + CHUNK));
  return out;
}

/**
 * The bytes of unpadded base64url text, or undefined when the text is not
 * canonical base64url (a foreign character, an impossible length, or
 * non-zero unused bits), so that each byte string has exactly one text.
 */
export function decodeBase64url(text: string): Uint8Array | undefined {
  if (text.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let acc = 0, bits = 0, at = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? VALUES[code]! : -1;
    if (value < 0) return undefined;
    acc = ((acc << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (acc >> bits) & 0xff;
    }
  }
  if ((acc & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}

/** The UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

const encoder = new TextEncoder();
