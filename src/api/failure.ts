// Reading what a failed (or odd) answer says, whichever envelope or format it came in.

export interface ParsedBody {
  json?: unknown;
  /** A short, single-line excerpt of a body that is not JSON. */
  excerpt?: string;
}

export function parseBody(text: string, contentType = ''): ParsedBody {
  const trimmed = text.trim();
  if (trimmed === '') return { excerpt: '' };
  try {
    return { json: JSON.parse(trimmed) };
  } catch {
    return { excerpt: excerptOf(trimmed, contentType) };
  }
}

/** An HTML error page becomes its title (or first text), never the page. */
function excerptOf(text: string, contentType: string): string {
  const html = /html/i.test(contentType) || /^<(!doctype|html|head|body)/i.test(text);
  let plain = text;
  if (html) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
    plain = title ?? text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ');
  }
  plain = plain.replace(/\s+/g, ' ').trim();
  const limit = 80;
  const short = plain.length > limit ? `${plain.slice(0, limit)}…` : plain;
  return html ? `HTML page: "${short}"` : `"${short}"`;
}

/** The human message of either envelope (platform: message/details/statusMessage; cleaning: message/error). */
export function describeFailure(parsed: ParsedBody): string {
  const body = parsed.json;
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    for (const key of ['message', 'error', 'error_description', 'detail', 'details', 'statusMessage']) {
      const value = b[key];
      if (typeof value === 'string' && value.trim() && !['error', 'failure', 'failed'].includes(value.trim().toLowerCase())) {
        return oneLine(value);
      }
      if (value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string') {
        return oneLine((value as { message: string }).message);
      }
    }
    return '';
  }
  return parsed.excerpt ?? '';
}

/** `errors` keyed by field (values a string or a list of strings), if the body has one. */
export function fieldErrorsOf(body: unknown): Record<string, string[]> | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const errors = (body as { errors?: unknown }).errors;
  if (!errors || typeof errors !== 'object') return undefined;
  const out: Record<string, string[]> = {};
  if (Array.isArray(errors)) {
    // Some services send [{field|param|path, message|msg}].
    for (const item of errors) {
      if (!item || typeof item !== 'object') continue;
      const i = item as Record<string, unknown>;
      const field = String(i.field ?? i.param ?? i.path ?? 'request');
      const message = String(i.message ?? i.msg ?? 'invalid');
      (out[field] ??= []).push(oneLine(message));
    }
  } else {
    for (const [field, value] of Object.entries(errors as Record<string, unknown>)) {
      const messages = Array.isArray(value) ? value.map(String) : [String(value)];
      out[field] = messages.map(oneLine);
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
