// mailclean(1), written from the command tree and the help topics' tables so it cannot drift from the code.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { HELP_TOPICS } from './topic-names.js';
import { ENVIRONMENT, type Entry, EXIT_CODES, TOPICS } from './topics.js';

/** Text as roff reads it: backslashes, hyphens and non-ASCII escaped, no line starting with a control character. */
function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/[^\x00-\x7f]/gu, (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`)
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

function options(cmd: CommandUnknownOpts): string[] {
  return cmd.options
    .filter((option) => !option.hidden)
    .flatMap((option) => {
      const shown = option.defaultValue !== undefined && typeof option.defaultValue !== 'boolean';
      const suffix = shown ? ` (default: ${String(option.defaultValue)})` : '';
      return ['.TP', `.B ${roff(option.flags)}`, roff(option.description + suffix)];
    });
}

function commandSection(cmd: CommandUnknownOpts, path: string[]): string[] {
  const name = [...path, cmd.name()];
  return [
    `.SS "${roff(`${name.join(' ')} ${cmd.usage()}`)}"`,
    roff(cmd.description()),
    ...options(cmd),
    ...cmd.commands.flatMap((sub) => commandSection(sub as CommandUnknownOpts, name)),
  ];
}

function entries(list: readonly Entry[]): string[] {
  return list.flatMap((e) => ['.TP', `.B ${roff(e.name)}`, roff(e.meaning)]);
}

/** Paragraphs of a help topic: blank lines become .PP, indented lines stay as they are (.nf). */
function topic(text: string): string[] {
  return text
    .split('\n\n')
    .flatMap((paragraph) => [
      '.PP',
      ...(/^ {2}/m.test(paragraph) ? ['.nf', roff(paragraph), '.fi'] : [roff(paragraph)]),
    ]);
}

export function manPage(program: CommandUnknownOpts, version: string): string {
  const commands = program.commands.filter((cmd) => cmd.name() !== 'help') as CommandUnknownOpts[];
  return `${[
    `.TH MAILCLEAN 1 "" "mailclean ${version}" "User Commands"`,
    '.SH NAME',
    `mailclean \\- ${roff(program.description().replace(/\.$/, '').toLowerCase())}`,
    '.SH SYNOPSIS',
    '.B mailclean',
    '[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]',
    '.br',
    '.B mailclean help',
    '[\\fIcommand\\fR|\\fItopic\\fR]',
    '.SH DESCRIPTION',
    roff(
      'mailclean manages your account on the marketing platform (register, login, profile, roles) and cleans mailing lists: a CSV goes in, every row comes back with a verdict on its address. With nothing configured, clean checks with the built-in engine and account commands use the built-in sandbox.',
    ),
    '.SH GLOBAL OPTIONS',
    ...options(program),
    '.SH COMMANDS',
    ...commands.flatMap((cmd) => commandSection(cmd, ['mailclean'])),
    '.SH ENVIRONMENT',
    ...entries(ENVIRONMENT),
    '.SH EXIT STATUS',
    ...entries(EXIT_CODES),
    '.SH OUTPUT',
    ...topic(TOPICS.formatting()),
    '.SH STATUSES',
    ...topic(TOPICS.statuses()),
    '.SH SEE ALSO',
    roff(
      `mailclean help <topic>: ${Object.keys(HELP_TOPICS).join(', ')}. The fields of every --json output: docs/json.md in the package.`,
    ),
  ].join('\n')}\n`;
}
