// Where a record's first fields end in its original text or bytes, quotes respected, so that a longer row can be
// written with its results after the header's fields and its own extra fields after those.

/**
 * The offset of the delimiter that ends field number `count` (1-based) of `raw`, or `raw.length` when it has no
 * more fields. A quote opens a quoted field only at the field's start; `""` inside one is a quote.
 */
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
