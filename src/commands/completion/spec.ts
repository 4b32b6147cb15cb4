// The command tree as completion scripts need it, read from the commander definitions.

import type { Argument, CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { PROFILE_KEYS } from '../../config/keys.js';
import { HELP_TOPICS } from '../../help/topic-names.js';

/** How a value completes: from a list of words, as a file or directory name, or not at all. */
export type Values = { words: string[] } | 'files' | 'dirs' | 'none';

export interface Flag {
  names: string[];
  long: string | undefined;
  short: string | undefined;
  description: string;
  value?: Values;
  /** The value may be left out (`--json [fields]`): the next word is the value only if it is not a flag. */
  optional: boolean;
}

export interface Spec {
  /** Command names from the root, space-separated ('' for mailclean itself, 'auth token'). */
  path: string;
  description: string;
  flags: Flag[];
  subcommands: Spec[];
  positionals: Values[];
}

/** Profile keys `config get|set` take (secrets are refused there). */
const SETTABLE_KEYS = PROFILE_KEYS.filter((k) => !k.secret).map((k) => k.key);

export function describe(cmd: CommandUnknownOpts, path: string, siblings: string[]): Spec {
  const help = cmd.createHelp();
  const children = help.visibleCommands(cmd);
  const names = children.map((c) => c.name()).filter((n) => n !== 'help');
  // `runs -L 5` is `runs list -L 5`: a command run as its default subcommand takes that one's flags too.
  const fallback = children.find((c) => c.name() === (cmd as { _defaultCommandName?: string })._defaultCommandName);
  const options = fallback ? [...help.visibleOptions(fallback), ...help.visibleOptions(cmd)] : help.visibleOptions(cmd);
  return {
    path,
    description: cmd.description(),
    flags: options.filter((o, i) => options.findIndex((p) => p.flags === o.flags) === i).map(flag),
    subcommands: children.map((c) => describe(c, path ? `${path} ${c.name()}` : c.name(), names)),
    positionals: cmd.registeredArguments.map((arg) => positional(arg, siblings)),
  };
}

function flag(option: Option): Flag {
  const placeholder = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? '';
  const f: Flag = {
    names: [option.short, option.long].filter((n): n is string => n !== undefined),
    long: option.long,
    short: option.short,
    description: option.description,
    optional: option.optional,
  };
  if (option.required || option.optional) {
    f.value = option.argChoices
      ? { words: option.argChoices }
      : /\bfile\b/.test(placeholder)
        ? 'files'
        : /\bdir\b/.test(placeholder)
          ? 'dirs'
          : 'none';
  }
  return f;
}

function positional(arg: Argument, siblings: string[]): Values {
  if (arg.argChoices) return { words: arg.argChoices };
  switch (arg.name()) {
    case 'input':
    case 'file':
      return 'files';
    case 'key':
      return { words: SETTABLE_KEYS };
    case 'command|topic': // `help [command|topic]`
      return { words: [...siblings, ...Object.keys(HELP_TOPICS)] };
    default:
      return 'none';
  }
}

export function* walk(spec: Spec): Generator<Spec> {
  yield spec;
  for (const sub of spec.subcommands) yield* walk(sub);
}

export function sq(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/** Single-quoted for fish, where a backslash escapes a backslash or a quote even inside quotes. */
export function fq(text: string): string {
  return `'${text.replace(/[\\']/g, '\\$&')}'`;
}
