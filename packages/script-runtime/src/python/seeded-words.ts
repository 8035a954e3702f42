/**
 * A seeded generator of 32-bit words (sfc32, as JavaScript scripts'
 * `Math.random`), for a Python script's `random` module: MicroPython seeds
 * its generator from these words, so a script's randomness depends only on
 * the runtime's seed, its name and its load tick.
 */
export function seededWords(seed: readonly [number, number, number, number]): () => number {
  let [a, b, c, d] = seed.map((w) => w | 0) as [number, number, number, number];
  return () => {
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return t >>> 0;
  };
}
