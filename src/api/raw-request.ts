// One request as a user spells it, `gh api` style: fields `key=value` (`key[]=v` appends, `key[sub]=v` nests) make
// the JSON body, or the query string of a GET or of a request whose body comes from a file.
import { UsageError } from '../errors.js';
import type { Method } from './http.js';

export const METHODS: readonly Method[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
/** Repeating one of these has the effect of sending it once (RFC 9110), so a failure whose effect is unknown may be. */
const IDEMPOTENT = new Set<Method>(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export interface Field {
  /** The flag it came from, for messages: `-f` or `-F`. */
  flag: string;
  key: string;
  value: unknown;
}

export interface RawRequest {
  method: Method;
  path: string;
  query: Record<string, string[]>;
  body?: unknown;
  idempotent: boolean;
}

/** `key=value` as given to `flag`; the value is kept as text, or read as `parse` says. */
export function parseField(text: string, flag: string, parse: (value: string) => unknown = (v) => v): Field {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} ${text}: expected key=value`);
  return { flag, key: text.slice(0, at), value: parse(text.slice(at + 1)) };
}

/** -F's reading of a value: true, false, null and integers become JSON; anything else stays text. */
export function typedValue(value: string): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  if (/^-?(0|[1-9]\d{0,15})$/.test(value)) return Number(value);
  return value;
}

export function buildRequest(o: { method?: Method; path: string; fields: Field[]; input?: unknown }): RawRequest {
  if (/^[a-z][a-z0-9+.-]*:/i.test(o.path))
    throw new UsageError(
      `${o.path}: give a path on the service (/api/me), not a URL`,
      "the base URL is the profile's (api-url, clean-url); --api-url and --clean-url change it",
    );
  const withSlash = o.path.startsWith('/') ? o.path : `/${o.path}`;
  const [path, search = ''] = splitOnce(withSlash, '?');
  const method = o.method ?? (o.fields.length > 0 || o.input !== undefined ? 'POST' : 'GET');
  const query: Record<string, string[]> = {};
  for (const [key, value] of new URLSearchParams(search)) (query[key] ??= []).push(value);
  const inQuery = o.input !== undefined || method === 'GET' || method === 'HEAD';
  if (inQuery) for (const f of o.fields) (query[f.key] ??= []).push(f.value === null ? '' : String(f.value));
  const body = o.input !== undefined ? o.input : inQuery || o.fields.length === 0 ? undefined : bodyOf(o.fields);
  return { method, path, query, body, idempotent: IDEMPOTENT.has(method) };
}

/** Fields as one JSON object: `a[]` appends to a list, `a[b]` sets a key of an object. */
function bodyOf(fields: Field[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const [name, ...rest] = keyPath(field);
    let container: Record<string, unknown> | unknown[] = body;
    let key: string | undefined = name;
    for (const next of rest) {
      const child: unknown = put(container, key, next === '' ? [] : {}, field, true);
      container = child as Record<string, unknown> | unknown[];
      key = next === '' ? undefined : next;
    }
    put(container, key, field.value, field, false);
  }
  return body;
}

/** `a[b][]` → ['a', 'b', '']. */
function keyPath(field: Field): string[] {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(field.key);
  if (!m) throw new UsageError(`${field.flag} ${field.key}=…: a key is a name, then [] or [name] parts`);
  return [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((p) => p[1]!)];
}

/** Sets (or, for a container, finds) the value under `key` (undefined: appended to a list). */
function put(
  container: Record<string, unknown> | unknown[],
  key: string | undefined,
  value: unknown,
  field: Field,
  reuse: boolean,
): unknown {
  const isList = Array.isArray(container);
  if (isList !== (key === undefined))
    throw new UsageError(`${field.flag} ${field.key}=…: mixes a list and an object in one key`);
  if (Array.isArray(container)) {
    container.push(value);
    return value;
  }
  const existing = container[key!];
  if (reuse && existing !== undefined && typeof existing === 'object' && existing !== null) {
    if (Array.isArray(existing) !== Array.isArray(value))
      throw new UsageError(`${field.flag} ${field.key}=…: mixes a list and an object in one key`);
    return existing;
  }
  container[key!] = value;
  return value;
}

function splitOnce(text: string, separator: string): [string, string?] {
  const at = text.indexOf(separator);
  return at < 0 ? [text] : [text.slice(0, at), text.slice(at + 1)];
}

/** Each value a request names as an address (`email`, `emails`, a list or one), as given (non-strings as their JSON). */
export function addressesOf(request: RawRequest): string[] {
  const values = (value: unknown): unknown[] =>
    Array.isArray(value) ? value : typeof value === 'string' && value !== '' ? [value] : [];
  const named: unknown[] = [];
  const body = request.body;
  if (body && typeof body === 'object' && !Array.isArray(body))
    for (const key of ['email', 'emails']) named.push(...values((body as Record<string, unknown>)[key]));
  for (const key of ['email', 'email[]', 'emails', 'emails[]']) named.push(...(request.query[key] ?? []));
  return named.map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
}
