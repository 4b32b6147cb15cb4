// --debug shows bodies: secrets are replaced and addresses masked, so a pasted log leaks neither.

const SECRET_KEY = /pass|token|secret|internal_access|api_key|apikey|authorization|p_key/i;
const ADDRESS = /^([^@\s])[^@\s]*@([^@\s]+)$/;

/** "ada@example.com" → "a***@example.com": enough to tell addresses apart in a log, not to mail them. */
export function maskAddress(text: string): string {
  return text.replace(ADDRESS, '$1***@$2');
}

export function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return maskAddress(value);
  if (Array.isArray(value)) return value.map(redactValue);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        SECRET_KEY.test(k) && v !== null && typeof v !== 'object' ? '[redacted]' : redactValue(v),
      ]),
    );
  }
  return value;
}

export function redactJson(value: unknown, limit = 2000): string {
  const text = JSON.stringify(redactValue(value)) ?? '';
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length} chars)` : text;
}

/** A URL as it may be shown: user name and password (`https://user:pass@host`) replaced by `***`. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1***@');
}

const CREDENTIAL_HEADER = /cookie|authorization|token|secret|api[-_]?key|password|session/i;

/** Headers as they may be shown (`api --include`): those that carry credentials (cookies, tokens) replaced. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, CREDENTIAL_HEADER.test(name) ? '[redacted]' : value]),
  );
}
