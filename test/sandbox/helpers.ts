export interface Reply {
  status: number;
  headers: Headers;
  // Bodies are checked field by field in the tests; `any` keeps those checks readable.
  json: any;
}

export interface CallOptions {
  body?: unknown;
  /** Sent verbatim instead of JSON-encoding `body`. */
  raw?: string | Uint8Array;
  token?: string;
  headers?: Record<string, string>;
}

export async function call(base: string, method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  let body: string | Uint8Array | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  if (opts.token !== undefined) headers['authorization'] = `Bearer ${opts.token}`;
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text === '' ? undefined : JSON.parse(text) };
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}.${process.pid}.${counter}@example.com`;
}

export const PASSWORD = 'correct horse battery';

export async function registerUser(
  base: string,
  fields: Record<string, unknown> = {},
): Promise<{ token: string; userId: string; brandId: string; email: string; reply: Reply }> {
  const email = (fields['email'] as string | undefined) ?? uniqueEmail();
  const reply = await call(base, 'POST', '/api/register', {
    body: {
      name: 'Ada',
      email,
      password: PASSWORD,
      country_code: 'GB',
      source: 'test',
      source_path: '/signup',
      ...fields,
    },
  });
  if (reply.status !== 201) throw new Error(`register failed: ${reply.status} ${JSON.stringify(reply.json)}`);
  return {
    token: reply.json.response.token,
    userId: reply.json.response.user.data.id,
    brandId: reply.json.response.brand.data.id,
    email,
    reply,
  };
}

export const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
export const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const DISPLAY_TIME = /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2}, \d{4} \d{2}:\d{2} (AM|PM)$/;
export const TOKEN = /^[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{43,}$/;
