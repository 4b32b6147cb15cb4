/** Keys as one buffer of UTF-8, each encoded once: key i is bytes[starts[i], starts[i + 1]). */
export function encodeKeys(keys: readonly string[]): { bytes: Buffer; starts: Int32Array } {
  const starts = new Int32Array(keys.length + 1);
  let bytes: Buffer = Buffer.allocUnsafe(4096);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const at = starts[i] as number;
    if (at + key.length * 3 > bytes.length) bytes = grown(bytes, at + key.length * 3);
    starts[i + 1] = at + bytes.write(key, at, 'utf8');
  }
  return { bytes, starts };
}

/** A larger buffer holding the bytes of `bytes`, room for at least `size`. */
function grown(bytes: Buffer, size: number): Buffer {
  const larger = Buffer.allocUnsafe(Math.max(size, bytes.length * 2));
  bytes.copy(larger);
  return larger;
}
