/** FNV-1a, then murmur3's finaliser so that the low bits (the slot) depend on every byte. */
export function hashBytes(bytes: Uint8Array, length: number, start = 0): number {
  let h = 0x811c9dc5;
  for (let i = start; i < start + length; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
