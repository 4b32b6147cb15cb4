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
  group: 'Account' | 'Profile' | 'Cleaning' | 'Other';
  load(): Promise<CommandModule>;
}

// Only the flags module of the command being run is imported, so `COMMAND --help` never loads its implementation.
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'register',
    group: 'Account',
    summary: 'create an account on the platform and/or the cleaning service',
    load: () => import('./flags/register.js'),
  },
  {
    name: 'login',
    group: 'Account',
    summary: 'sign in and store the tokens in the profile',
    load: () => import('./flags/login.js'),
  },
  { name: 'logout', group: 'Account', summary: 'forget stored tokens', load: () => import('./flags/logout.js') },
  {
    name: 'auth',
    group: 'Account',
    summary: 'show sign-in status or print a token',
    load: () => import('./flags/auth.js'),
  },
  {
    name: 'oem-register',
    group: 'Account',
    summary: 'register a user through the OEM route (internal token)',
    load: () => import('./flags/oem-register.js'),
  },
  { name: 'me', group: 'Profile', summary: 'show or update your profile', load: () => import('./flags/me.js') },
  {
    name: 'roles',
    group: 'Profile',
    summary: 'list your roles and their permissions',
    load: () => import('./flags/roles.js'),
  },
  {
    name: 'clean',
    group: 'Cleaning',
    summary: 'check every address of a mailing list (CSV or text) and write the verdicts',
    load: () => import('./clean/clean.js'),
  },
  {
    name: 'verify',
    group: 'Cleaning',
    summary: 'check one or a few addresses now and print their verdicts',
    load: () => import('./flags/verify.js'),
  },
  {
    name: 'allowance',
    group: 'Cleaning',
    summary: "show what is known of the month's allowance, and what was spent",
    load: () => import('./flags/allowance.js'),
  },
  {
    name: 'cache',
    group: 'Cleaning',
    summary: 'show or clear the cache of answers reused across lists',
    load: () => import('./flags/cache.js'),
  },
  {
    name: 'runs',
    group: 'Cleaning',
    summary: 'list the runs of clean, show one, resume one with rows left to check, forget old ones',
    load: () => import('./flags/runs.js'),
  },
  {
    name: 'api',
    group: 'Other',
    summary: 'send one request to either service with the stored token and print the answer',
    load: () => import('./flags/api.js'),
  },
  {
    name: 'config',
    group: 'Other',
    summary: 'read and change profile settings',
    load: () => import('./flags/config.js'),
  },
  {
    name: 'sandbox',
    group: 'Other',
    summary: 'run the built-in sandbox server for both services',
    load: () => import('./flags/sandbox.js'),
  },
  {
    name: 'completion',
    group: 'Other',
    summary: 'print a shell completion script (bash, zsh, fish)',
    load: () => import('./flags/completion.js'),
  },
];
