import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from '@commander-js/extra-typings';
import type { HttpClient, Method, RawAnswer } from '../api/http.js';
import { buildRequest, type Field, METHODS, parseField, type RawRequest, typedValue } from '../api/raw-request.js';
import { AuthError, UsageError } from '../errors.js';
import type { Factory } from '../factory.js';
import { readAll } from '../io/io.js';
import { redactHeaders } from '../redact.js';
import { isValidationRoute, sendBooked } from './common/clean-metering.js';
import { cleaningSession, platformSession } from './common/sessions.js';
import type { Runner } from './index.js';

export function define(cmd: Command, run: Runner): void {
  // The global --no-input keeps the name `input` in the options handed over: this command's --input is taken here.
  let inputFile: string | undefined;
  cmd.on('option:input', (file: string) => {
    inputFile = file;
  });
  cmd
    .argument('<path>', 'the route, e.g. /api/me (a query string may follow)')
    .addOption(
      new Option('--service <service>', 'which service').choices(['platform', 'clean'] as const).default('platform'),
    )
    .addOption(
      new Option('-X, --method <method>', 'HTTP method (default: GET, or POST with fields or --input)')
        .choices(METHODS)
        .argParser(parseMethod),
    )
    .option('-f, --raw-field <key=value>', 'a string field (repeatable): key[]=v appends to a list', collect, [])
    .option(
      '-F, --field <key=value>',
      'a typed field: true, false, null and integers as JSON, @FILE a file',
      collect,
      [],
    )
    .option('--input <file>', 'the request body, JSON, from FILE or - for stdin (fields then go in the query)')
    .option('-i, --include', 'print the status line and the headers (secrets redacted) before the body')
    .addHelpText(
      'after',
      `
Sends one request with the stored token to the configured base URL (proxies, retries and redaction as every
command has them) and prints the answer's body: pretty JSON on a terminal, as received otherwise. Fields make a
JSON body (and the method POST); with -X GET, or with --input, they go in the query string.

A request to the cleaning service's validation routes (/api/v1/email-verify/...) is booked as \`clean\` books
its own: it takes a slot of the account's rate limit and is sent once (each attempt would take another); one
naming more addresses than are known to be left of the month's allowance is not sent; the addresses of an
answered one count as spent in \`mailclean allowance\`, and a refusal for the allowance leaves 0 known.

Exit codes: 0 a 2xx answer, 4 a 401 (sign in again), 2 a bad flag or a 422, 1 any other failure. The body of
a failed answer is printed too.

Examples:
  mailclean api /api/me
  mailclean api /api/user/USER_ID/roles --include
  mailclean api --service clean /api/v1/email-verify/validate/clean -f 'email[]=ada@example.com'
  mailclean api -X POST /api/me --input profile.json`,
    )
    .action(run((f, opts, [path]) => api({ ...opts, path, input: inputFile }, f)));
}

function parseMethod(value: string): Method {
  const method = value.toUpperCase() as Method;
  if (!METHODS.includes(method)) throw new InvalidArgumentError(`choose one of ${METHODS.join(', ')}.`);
  return method;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export interface ApiOptions {
  path: string;
  service: 'platform' | 'clean';
  method?: Method;
  rawField: string[];
  field: string[];
  input?: string;
  include?: boolean;
}

export async function api(o: ApiOptions, f: Factory): Promise<number> {
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
  const client = await signedInClient(f, o.service);
  const answer = metered
    ? await sendBooked(f, client, request)
    : await client.exchange({ ...request, signal: f.io.signals.stop });
  print(f, request, answer, o.include === true);
  if (!answer.failure) return 0;
  if (answer.failure instanceof AuthError && o.service === 'clean')
    throw new AuthError(answer.failure.message, 'run `mailclean login --service clean`');
  throw answer.failure;
}

async function signedInClient(f: Factory, service: 'platform' | 'clean'): Promise<HttpClient> {
  return service === 'platform' ? (await platformSession(f)).http : (await cleaningSession(f)).http;
}

async function readFields(o: ApiOptions, f: Factory): Promise<Field[]> {
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
  if (file === '-') return readAll(f.io.stdin);
  try {
    return await readFile(resolve(f.io.raw.cwd, file), 'utf8');
  } catch (error) {
    throw new UsageError(`${flag} ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
}

const { STATUS_CODES } = process.getBuiltinModule('node:http');

function print(f: Factory, request: RawRequest, answer: RawAnswer, include: boolean): void {
  if (include) {
    const headers = Object.entries(redactHeaders(answer.headers)).map(([k, v]) => `${k}: ${f.io.secrets.redact(v)}\n`);
    f.io.out(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\n${headers.join('')}\n`);
  }
  if (request.method === 'HEAD' || answer.text === '') return;
  if (answer.json !== undefined && f.io.isStdoutTTY) f.io.out(`${JSON.stringify(answer.json, null, 2)}\n`);
  else f.io.out(answer.text);
}
