// How the list's unique addresses lie in their log (unique-keys.ts): each key's UTF-8 after its length in two bytes
// (little-endian), one after another; a part's unused end is zeros, as no key is empty.

export const LENGTH_BYTES = 2;

/** Calls `visit` with each key of a part of the log (bytes[start, end)), in order; returns how many there were. */
export function eachKeyIn(part: Buffer, visit: (bytes: Buffer, start: number, end: number) => void): number {
  let keys = 0;
  for (let at = 0; at + LENGTH_BYTES <= part.length; keys++) {
    const length = part.readUInt16LE(at);
    if (length === 0) break;
    visit(part, at + LENGTH_BYTES, at + LENGTH_BYTES + length);
    at += LENGTH_BYTES + length;
  }
  return keys;
}
