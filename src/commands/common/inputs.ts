import { text as wholeText } from 'node:stream/consumers';
import { ApiError, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { promptSecret, promptText } from '../../io/prompt.js';
import type { ServiceChoice } from './options.js';

/** A flag's value, trimmed; checked before the first question, so a typo costs no round of answers. */
export function checkedFlag(
  value: unknown,
  flag: string,
  validate?: (v: string) => string | undefined,
): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const problem = validate?.(value.trim());
  if (problem) throw new UsageError(`${flag}: ${problem}`);
  return value.trim();
}

/** Before the first question: the service URLs, and that the chosen service has one. */
export async function checkEndpoints(f: Factory, service: ServiceChoice): Promise<void> {
  await f.profile();
  if (service === 'platform') await f.platform();
  else if (service === 'clean') await f.cleaning();
}

/** A flag's value, else a prompt on a terminal, else a usage error that names the flag. */
export async function valueOrPrompt(
  f: Factory,
  value: unknown,
  flag: string,
  message: string,
  opts: { default?: string; validate?: (v: string) => string | undefined } = {},
): Promise<string> {
  const given = checkedFlag(value, flag, opts.validate);
  if (given !== undefined) return given;
  if (!f.io.canPrompt)
    throw new UsageError(
      `${flag} is required`,
      `pass ${flag} <value> (prompts are off: no terminal, --no-input, MAILCLEAN_NO_INPUT or CI)`,
    );
  for (;;) {
    const answer = (await promptText(f.io, message, { default: opts.default })).trim();
    const problem = opts.validate?.(answer);
    if (!problem) return answer;
    f.io.stderr.write(`${problem}\n`);
  }
}

/** A password from stdin (--password-stdin), else a masked prompt, else a usage error. */
export async function passwordInput(f: Factory, fromStdin: unknown, opts: { confirm?: boolean } = {}): Promise<string> {
  const password = await readPassword(f, fromStdin, opts);
  f.io.secrets.add(password);
  return password;
}

async function readPassword(f: Factory, fromStdin: unknown, opts: { confirm?: boolean }): Promise<string> {
  if (fromStdin === true) {
    if (f.io.stdin.isTTY) f.io.stderr.write('Reading the password from stdin (end with Ctrl-D)…\n');
    const password = stripNewline(await wholeText(f.io.stdin));
    if (password === '') throw new UsageError('--password-stdin: stdin held no password');
    return password;
  }
  if (!f.io.canPrompt) {
    throw new UsageError(
      'a password is required',
      'pipe it in with --password-stdin (prompts are off: no terminal, --no-input, MAILCLEAN_NO_INPUT or CI)',
    );
  }
  for (;;) {
    const password = await promptSecret(f.io, 'Password:');
    if (!opts.confirm) return password;
    const again = await promptSecret(f.io, 'Password (again):');
    if (again === password) return password;
    f.io.stderr.write('The passwords differ; try again.\n');
  }
}

/** A secret read whole from stdin (--with-token). */
export async function secretFromStdin(f: Factory, flag: string): Promise<string> {
  const value = stripNewline(await wholeText(f.io.stdin)).trim();
  if (value === '') throw new UsageError(`${flag}: stdin held nothing`);
  f.io.secrets.add(value);
  return value;
}

/** The password never comes from a flag value. */
export const PASSWORD_INPUT = 'the password';

/** The body fields of a sign-up (register, oem-register), by the flag or input each comes from. */
export const SIGN_UP_FLAGS = { name: '--name', email: '--email', password: PASSWORD_INPUT };

/** A new account's name, email and password: from the flags, else asked (the password twice). */
export async function signUpInput(
  f: Factory,
  o: { name?: string; email?: string; passwordStdin?: boolean },
): Promise<{ name: string; email: string; password: string }> {
  const givenEmail = checkedFlag(o.email, '--email', validateEmail);
  const name = await valueOrPrompt(f, o.name, '--name', 'Name:');
  const email = await valueOrPrompt(f, givenEmail, '--email', 'Email:', { validate: validateEmail });
  return { name, email, password: await passwordInput(f, o.passwordStdin, { confirm: true }) };
}

/** For `.catch()` on a request: a rejection naming body fields becomes a usage error naming the flags instead. */
export function namingFlags(flags: Record<string, string>) {
  return (error: unknown): never => {
    if (error instanceof ApiError && error.fieldErrors && (error.status === 422 || error.status === 400)) {
      throw new UsageError(
        Object.entries(error.fieldErrors)
          .map(([field, messages]) => `${flags[field] ?? field}: ${messages.join('; ')}`)
          .join('; '),
      );
    }
    throw error;
  };
}

function stripNewline(s: string): string {
  return s.replace(/\r?\n$/, '');
}

export function validateEmail(value: string): string | undefined {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? undefined : `"${value}" is not an email address`;
}

/** ISO 3166-1 alpha-2, as the platform's users carry it (`GB`); callers send it upper-cased. */
export function validateCountryCode(value: string): string | undefined {
  return /^[A-Za-z]{2}$/.test(value)
    ? undefined
    : `"${value}" is not a two-letter country code (ISO 3166-1, e.g. GB or US)`;
}

/** The region of the user's locale (LC_ALL, LC_MESSAGES, LANG, then Intl), if it names a country. */
export function localeRegion(env: Record<string, string | undefined>): string | undefined {
  for (const value of [env.LC_ALL, env.LC_MESSAGES, env.LANG]) {
    const region = value && /^[a-z]{2,3}[_-]([A-Z]{2})\b/.exec(value)?.[1];
    if (region) return region;
  }
  try {
    const region = new Intl.Locale(Intl.DateTimeFormat().resolvedOptions().locale).region;
    // A UN M.49 area (`es-419`: Latin America) is not a country code.
    return region && validateCountryCode(region) === undefined ? region : undefined;
  } catch {
    return undefined;
  }
}

/** The internal access token: from --internal-token-file (trimmed; masked from then on), else the environment's. */
export async function readInternalToken(
  f: Factory,
  file: string | undefined,
): Promise<{ token?: string; source: string }> {
  if (file === undefined)
    return { token: f.io.env.MAILCLEAN_INTERNAL_TOKEN?.trim() || undefined, source: 'MAILCLEAN_INTERNAL_TOKEN' };
  const flag = '--internal-token-file';
  const { readFile } = await import('node:fs/promises');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  const token = text.trim();
  if (!token) throw new UsageError(`${flag}: ${file} is empty`);
  f.io.secrets.add(token);
  return { token, source: `${flag} ${file}` };
}
