// How a clean was started, for the run history: the flags given on the command line, so that `runs resume` can give
// them again from any directory.
import { resolve } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { RunOrigin } from '../../clean/run/request.js';
import { redactUrl } from '../../redact.js';

/** Flags whose value is a path, made absolute. */
const PATH_FLAGS = new Set(['--output', '--rejects', '--summary-json', '--report']);
/** Flags whose value may hold a secret (a Redis URL's password), shown without it. */
const URL_FLAGS = new Set(['--shared']);

export function runOrigin(cmd: CommandUnknownOpts, cwd: string): RunOrigin {
  const input = cmd.args[0] ?? '-';
  const args = [input === '-' ? '-' : resolve(cwd, input)];
  for (const option of cmd.options) {
    const key = option.attributeName();
    if (cmd.getOptionValueSource(key) !== 'cli' || !option.long) continue;
    const value: unknown = cmd.getOptionValue(key);
    if (option.negate) {
      if (value === false) args.push(option.long);
    } else if (value === true) args.push(option.long);
    else if (typeof value === 'string') args.push(option.long, flagValue(option.long, value, cwd));
  }
  return { args, cwd };
}

function flagValue(flag: string, value: string, cwd: string): string {
  if (PATH_FLAGS.has(flag)) return value === '-' ? value : resolve(cwd, value);
  if (URL_FLAGS.has(flag)) return redactUrl(value);
  return value;
}

/** A value removed from the arguments (`***`), which cannot be given again. */
export function isRedacted(value: string): boolean {
  return value.includes('***@');
}
