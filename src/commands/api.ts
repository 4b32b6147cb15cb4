import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { text as wholeText } from 'node:stream/consumers';
import type { HttpResponse } from '../api/http.js';
import { buildRequest, type Field, parseField, type RawRequest, typedValue } from '../api/raw-request.js';
import { AuthError, UsageError } from '../errors.js';
import type { Factory } from '../factory.js';
import { redactHeaders } from '../redact.js';
import { isValidationRoute, sendBooked } from './common/clean-metering.js';
import { cleaningSession, platformSession } from './common/sessions.js';
import type { ApiFlags } from './flags/api.js';

export async function api(o: ApiFlags, f: Factory): Promise<number> {
  const fields = await readFields(o, f);
  const request = buildRequest({
    method: o.method,
    path: o.path,
    fields,
    input: o.input === undefined ? undefined : await readInput(o.input, f),
  });
  const metered = isValidationRoute(
    (o.service === 'platform' ? await f.platform() : await f.cleaning()).http.url(request),
  );
  if (metered && o.service === 'platform')
    throw new UsageError(
      `${request.path} is a route of the cleaning service`,
      'use --service clean: its requests are booked in the rate limit and the allowance, as `clean` books them',
    );
  const client = o.service === 'platform' ? (await platformSession(f)).http : (await cleaningSession(f)).http;
  const response = metered
    ? await sendBooked(f, client, request)
    : await client.exchange({ ...request, signal: f.io.signals.stop });
  print(f, request, response, o.include === true);
  if (!response.failure) return 0;
  if (response.failure instanceof AuthError && o.service === 'clean')
    throw new AuthError(response.failure.message, 'run `mailclean login --service clean`');
  throw response.failure;
}

async function readFields(o: ApiFlags, f: Factory): Promise<Field[]> {
  if (o.input === '-' && o.field.some((text) => text.includes('=@-')))
    throw new UsageError('--input - and -F KEY=@- both read stdin: give one of them a file');
  const typed: Field[] = [];
  for (const text of o.field) {
    const field = parseField(text, '-F', typedValue);
    if (typeof field.value === 'string' && field.value.startsWith('@'))
      field.value = await readText(field.value.slice(1), `-F ${field.key}`, f);
    typed.push(field);
  }
  return [...o.rawField.map((text) => parseField(text, '-f')), ...typed];
}

/** --input: a JSON body from a file or stdin; anything else is refused before a request is sent. */
async function readInput(file: string, f: Factory): Promise<unknown> {
  const text = await readText(file, '--input', f);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input ${file}: not valid JSON (${(error as Error).message})`);
  }
}

async function readText(file: string, flag: string, f: Factory): Promise<string> {
  if (file === '-') return wholeText(f.io.stdin);
  try {
    return await readFile(resolve(f.io.raw.cwd, file), 'utf8');
  } catch (error) {
    throw new UsageError(`${flag} ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
}

const { STATUS_CODES } = process.getBuiltinModule('node:http');

function print(f: Factory, request: RawRequest, response: HttpResponse, include: boolean): void {
  if (include) {
    const headers = Object.entries(redactHeaders(response.headers)).map(
      ([k, v]) => `${k}: ${f.io.secrets.redact(v)}\n`,
    );
    f.io.data(`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}\n${headers.join('')}\n`);
  }
  if (request.method === 'HEAD' || response.text === '') return;
  if (response.json !== undefined && f.io.isStdoutTTY) f.io.data(`${JSON.stringify(response.json, null, 2)}\n`);
  else f.io.data(response.text);
}
