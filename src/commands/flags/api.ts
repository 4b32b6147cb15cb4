import { type Command, InvalidArgumentError, Option } from '@commander-js/extra-typings';
import type { Method } from '../../api/http.js';
import { METHODS } from '../../api/raw-request.js';
import type { Runner } from '../index.js';

export function define(cmd: Command, run: Runner): void {
  // The global --no-input keeps the name `input` in the options handed over: this command's --input is taken here.
  let inputFile: string | undefined;
  cmd.on('option:input', (file: string) => {
    inputFile = file;
  });
  declareFlags(cmd).action(
    run(async (f, opts, [path]) => (await import('../api.js')).api({ ...opts, path, input: inputFile }, f)),
  );
}

function declareFlags(cmd: Command) {
  return cmd
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
its own: it takes a slot of the account's rate limit and is sent once (each attempt would take another); the
addresses of an answered one count as spent in \`mailclean allowance\` and its answers go into the verdict cache
(\`verify\` and \`clean\` of those addresses pay nothing again); a refusal for the allowance leaves 0 known, which
the service may correct (a plan upgraded).

Exit codes: 0 a 2xx answer, 4 a 401 (sign in again), 2 a bad flag or a 422, 1 any other failure. The body of
a failed answer is printed too.

Examples:
  mailclean api /api/me
  mailclean api /api/user/USER_ID/roles --include
  mailclean api --service clean /api/v1/email-verify/validate/clean -f 'email[]=ada@example.com'
  mailclean api -X POST /api/me --input profile.json`,
    );
}

/** The flags as commander parsed them; the route and --input are added by the action. */
export type ApiFlags = ReturnType<ReturnType<typeof declareFlags>['opts']> & { path: string };

function parseMethod(value: string): Method {
  const method = value.toUpperCase() as Method;
  if (!METHODS.includes(method)) throw new InvalidArgumentError(`choose one of ${METHODS.join(', ')}.`);
  return method;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
