// Response headers: flattened as undici gives them, and the waits a server asks for.

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Retry-After in seconds or as an HTTP date, else RateLimit-Reset (seconds). */
export function retryAfterMs(headers: Record<string, string>, now = Date.now()): number | undefined {
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  const reset = headers['ratelimit-reset'] ?? headers['x-ratelimit-reset'];
  if (reset !== undefined) {
    const seconds = Number(reset);
    // Some servers send an epoch time here rather than a delta.
    if (Number.isFinite(seconds))
      return seconds > 1e9 ? Math.max(0, seconds * 1000 - now) : Math.max(0, seconds * 1000);
  }
  return undefined;
}
