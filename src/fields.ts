/**
 * The top-level fields of a JSON shape, listed once and checked by the compiler against its type: a field added
 * to the type and not here (or here and not in the type) does not compile. `--json a,b` offers exactly these.
 */
export function fieldsOf<T>(fields: Record<keyof T & string, true>): Array<keyof T & string> {
  return Object.keys(fields) as Array<keyof T & string>;
}
