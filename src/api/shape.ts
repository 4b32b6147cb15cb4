// Small readers for loosely-typed JSON: accept extra fields anywhere, tolerate missing optional ones.

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `{data: X}` -> X; anything else unchanged. */
export function unwrap(value: unknown): unknown {
  return isObject(value) && 'data' in value ? value.data : value;
}

export function unwrapObject(value: unknown): Json | undefined {
  const inner = unwrap(value);
  return isObject(inner) ? inner : undefined;
}

export function unwrapList(value: unknown): Json[] {
  const inner = unwrap(value);
  return Array.isArray(inner) ? inner.filter(isObject) : [];
}

export function str(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}
