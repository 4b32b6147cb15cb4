/** The offset of the delimiter ending field `count` (1-based) of `raw`, quotes respected; else `raw.length`. */
export function fieldsEnd(raw: string | Uint8Array, count: number, delimiter: string): number {
  const d = delimiter.charCodeAt(0);
  const at = typeof raw === 'string' ? (i: number) => raw.charCodeAt(i) : (i: number) => raw[i]!;
  let field = 1;
  let start = true;
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = at(i);
    if (quoted) {
      if (c === 0x22) {
        if (i + 1 < raw.length && at(i + 1) === 0x22) i++;
        else quoted = false;
      }
      continue;
    }
    if (c === d) {
      if (field === count) return i;
      field++;
      start = true;
      continue;
    }
    if (start && c === 0x22) quoted = true;
    start = false;
  }
  return raw.length;
}
