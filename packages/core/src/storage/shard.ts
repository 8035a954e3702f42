/**
 * Which of `shards` rows a writer named `key` writes, for a counter kept as
 * several rows summed on read (so that concurrent writers rarely touch the
 * same row: see docs/storage.md, "Hot rows"). The same key always answers
 * the same shard. FNV-1a over the UTF-16 code units, so every process and
 * every adapter agree.
 *
 * @example
 * shardOf("usr_3kq", 8) // → a number in 0..7, the same on every call
 */
export function shardOf(key: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % shards;
}
