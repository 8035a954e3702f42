/**
 * SHA-256 of a string's UTF-8 bytes, in hex, for the short texts hashed on
 * every tick (a state's canonical JSON, a chain link). It encodes straight
 * into one reused buffer and compresses with one reused schedule, so a
 * small state costs no allocation but the answer: about a microsecond,
 * several times less than encoding with TextEncoder and hashing with a new
 * hasher each time. Lone surrogates encode as U+FFFD, as TextEncoder does.
 *
 * @example
 * sha256Hex("abc") // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
export function sha256Hex(text: string): string {
  const length = encodeUtf8(text);
  const bits = length * 8;
  const total = (((length + 8) >> 6) + 1) << 6;
  buffer.fill(0, length, total);
  buffer[length] = 0x80;
  // The bit length, big-endian in the last 8 bytes (above 2^32 bits for texts over 512 MiB).
  const high = Math.floor(bits / 0x1_0000_0000);
  writeWord(total - 8, high);
  writeWord(total - 4, bits >>> 0);
  state.set(INITIAL);
  for (let offset = 0; offset < total; offset += 64) compress(offset);
  let hex = "";
  for (let i = 0; i < 8; i++) {
    const word = state[i]!;
    hex += HEX[word >>> 24]! + HEX[(word >>> 16) & 0xff]! + HEX[(word >>> 8) & 0xff]! + HEX[word & 0xff]!;
  }
  return hex;
}

const K = Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const INITIAL = Uint32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

const state = new Uint32Array(8);
const schedule = new Uint32Array(64);
let buffer = new Uint8Array(1024);

/** Writes `text` as UTF-8 at the start of `buffer` (growing it to fit it and its padding); answers the byte count. */
function encodeUtf8(text: string): number {
  const most = text.length * 3 + 72;
  if (buffer.length < most) buffer = new Uint8Array(Math.max(most, buffer.length * 2));
  const out = buffer;
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      out[at++] = c;
    } else if (c < 0x800) {
      out[at++] = 0xc0 | (c >> 6);
      out[at++] = 0x80 | (c & 0x3f);
    } else {
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i += 1;
          out[at++] = 0xf0 | (c >> 18);
          out[at++] = 0x80 | ((c >> 12) & 0x3f);
          out[at++] = 0x80 | ((c >> 6) & 0x3f);
          out[at++] = 0x80 | (c & 0x3f);
          continue;
        }
        c = 0xfffd; // a lone surrogate
      }
      out[at++] = 0xe0 | (c >> 12);
      out[at++] = 0x80 | ((c >> 6) & 0x3f);
      out[at++] = 0x80 | (c & 0x3f);
    }
  }
  return at;
}

function writeWord(at: number, word: number): void {
  buffer[at] = word >>> 24;
  buffer[at + 1] = (word >>> 16) & 0xff;
  buffer[at + 2] = (word >>> 8) & 0xff;
  buffer[at + 3] = word & 0xff;
}

function compress(offset: number): void {
  const w = schedule;
  const b = buffer;
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    w[i] = (b[j]! << 24) | (b[j + 1]! << 16) | (b[j + 2]! << 8) | b[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15]!;
    const y = w[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = state[0]!, bb = state[1]!, c = state[2]!, d = state[3]!;
  let e = state[4]!, f = state[5]!, g = state[6]!, h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & bb) ^ (a & c) ^ (bb & c))) | 0;
    h = g; g = f; f = e; e = (d + t1) | 0;
    d = c; c = bb; bb = a; a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0; state[1] = (state[1]! + bb) | 0; state[2] = (state[2]! + c) | 0; state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0; state[5] = (state[5]! + f) | 0; state[6] = (state[6]! + g) | 0; state[7] = (state[7]! + h) | 0;
}
