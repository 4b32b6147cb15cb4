/** A JSON shape's top-level fields, listed once and checked by the compiler against its type: what `--json` offers. */
export function fieldsOf<T>(fields: Record<keyof T & string, true>): Array<keyof T & string> {
  return Object.keys(fields) as Array<keyof T & string>;
}
