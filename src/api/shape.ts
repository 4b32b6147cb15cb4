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

/** Where services nest a payload: platform `response`, cleaning `result`, or `data`. */
const CONTAINERS = ['response', 'result', 'data'];

/** The body and the objects it nests a payload in, outermost first. */
export function payloads(body: unknown): Json[] {
  if (!isObject(body)) return [];
  return [body, ...CONTAINERS.map((key) => body[key]).filter(isObject)];
}

const TOKEN_KEYS = ['token', 'accessToken', 'access_token'];

/** The token, wherever a service puts it: `token`, `accessToken` or `access_token`, at the top or under a payload. */
export function findToken(body: unknown): string | undefined {
  const queue: Array<{ value: unknown; depth: number }> = [{ value: body, depth: 0 }];
  while (queue.length > 0) {
    const { value, depth } = queue.shift()!;
    if (!isObject(value)) continue;
    for (const key of TOKEN_KEYS) {
      const token = value[key];
      if (typeof token === 'string' && token.length > 0) return token;
      // Some services nest it again: {token: {accessToken: "..."}}.
      if (isObject(token)) queue.push({ value: token, depth: depth + 1 });
    }
    if (depth < 2) for (const key of CONTAINERS) queue.push({ value: value[key], depth: depth + 1 });
  }
  return undefined;
}
