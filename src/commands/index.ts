import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../factory.js';

/** A command's implementation; its options are typed from its flags, so a renamed flag fails to compile. */
export type CommandAction<Opts = unknown, Args extends unknown[] = unknown[]> = (
  f: Factory,
  opts: Opts,
  args: Args,
) => Promise<number | undefined>;
/** Wraps a handler into a commander action that builds the factory, runs it and records the exit code. */
export type Runner = <Opts, Args extends unknown[]>(
  handler: CommandAction<Opts, Args>,
) => (...actionArgs: [...Args, Opts, unknown]) => Promise<void>;

export interface CommandModule {
  define(cmd: Command, run: Runner): void;
}

export interface CommandEntry {
  name: string;
  summary: string;
  group: Group;
  load(): Promise<CommandModule>;
}

/** Each command's summary, by group, in the order `mailclean --help` lists them. */
const SUMMARIES = {
  Account: {
    register: 'create an account on the platform and/or the cleaning service',
    login: 'sign in and store the tokens in the profile',
    logout: 'forget stored tokens',
    auth: 'show sign-in status or print a token',
    'oem-register': 'register a user through the OEM route (internal token)',
  },
  Profile: {
    me: 'show or update your profile',
    roles: 'list your roles and their permissions',
  },
  Cleaning: {
    clean: 'check every address of a mailing list (CSV or text) and write the verdicts',
    verify: 'check one or a few addresses now and print their verdicts',
    allowance: "show what is known of the month's allowance, and what was spent",
    cache: 'show or clear the cache of answers reused across lists',
    runs: 'list the runs of clean, show one, resume one with rows left to check, forget old ones',
    review: "decide a cleaned list's typo suggestions on the terminal (accept, reject, edit, undo)",
  },
  Other: {
    api: 'send one request to either service with the stored token and print the answer',
    config: 'read and change profile settings',
    sandbox: 'run the built-in sandbox server for both services',
    completion: 'print a shell completion script (bash, zsh, fish)',
  },
} as const;

type Group = keyof typeof SUMMARIES;
type Name = { [G in Group]: keyof (typeof SUMMARIES)[G] }[Group];

// A command's flags and help are in flags/NAME.ts (clean's in clean/clean.ts), its work in NAME.ts, imported when it
// runs: only the module of the command being run is loaded, so `COMMAND --help` never loads an implementation.
const LOADERS: Record<Name, () => Promise<CommandModule>> = {
  register: () => import('./flags/register.js'),
  login: () => import('./flags/login.js'),
  logout: () => import('./flags/logout.js'),
  auth: () => import('./flags/auth.js'),
  'oem-register': () => import('./flags/oem-register.js'),
  me: () => import('./flags/me.js'),
  roles: () => import('./flags/roles.js'),
  clean: () => import('./clean/clean.js'),
  verify: () => import('./flags/verify.js'),
  allowance: () => import('./flags/allowance.js'),
  cache: () => import('./flags/cache.js'),
  runs: () => import('./flags/runs.js'),
  review: () => import('./flags/review.js'),
  api: () => import('./flags/api.js'),
  config: () => import('./flags/config.js'),
  sandbox: () => import('./flags/sandbox.js'),
  completion: () => import('./flags/completion.js'),
};

export const COMMANDS: readonly CommandEntry[] = Object.entries(SUMMARIES).flatMap(([group, commands]) =>
  Object.entries(commands).map(([name, summary]) => ({
    name,
    summary,
    group: group as Group,
    load: LOADERS[name as Name],
  })),
);
