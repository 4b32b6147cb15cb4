import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import { COMMANDS, type CommandAction, type CommandEntry, type Runner } from './commands/index.js';
import { CancelError, CliError, ExitCode, messageOf, SilentError, UsageError } from './errors.js';
import type { GlobalOptions } from './factory.js';
import { HELP_TOPICS, type HelpTopic } from './help/topic-names.js';
import { type IO, processIO } from './io/io.js';
import { Interrupted } from './io/signals.js';
import { debugWanted, forTerminal } from './io/streams.js';
import { secretsOf } from './secrets.js';
import { VERSION } from './version.js';

const GLOBAL_VALUE_OPTIONS = new Set(['--profile', '--api-url', '--clean-url']);

/**
 * A reader that went away (`mailclean ... | head`) is not an error worth a stack trace: the process stops quietly
 * with the exit code it had. For entry points that load this module (bin/mailclean.js keeps its own copy, so that
 * --version loads nothing).
 */
export function stopQuietlyWhenReaderGoes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
}

/** Runs mailclean with these arguments; the only place where failures become messages and exit codes. */
export async function main(argv: string[], given: IO = processIO()): Promise<number> {
  const io: IO = { ...given, secrets: given.secrets ?? secretsOf(given.env) };
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(`${VERSION}\n`);
    return ExitCode.ok;
  }
  let exitCode: number = ExitCode.ok;
  const debug = debugWanted(argv.includes('--debug'), io.env);
  try {
    const { Command } = await import('@commander-js/extra-typings');
    const program = buildProgram(Command, io);
    const [first, second] = positionals(argv);
    if (first === 'help' && second !== undefined && Object.hasOwn(HELP_TOPICS, second)) {
      const { TOPICS } = await import('./help/topics.js');
      io.stdout.write(`${TOPICS[second as HelpTopic]()}\n`);
      return ExitCode.ok;
    }
    if (first === 'help' && second !== undefined && second !== 'help' && !COMMANDS.some((c) => c.name === second)) {
      throw new UsageError(
        `no command or help topic named "${second}"`,
        `help topics: ${Object.keys(HELP_TOPICS).join(', ')}; commands: mailclean --help`,
      );
    }
    const invoked = first === 'help' ? second : first;
    for (const entry of COMMANDS) {
      const cmd = addCommand(program, entry);
      if (entry.name === invoked) {
        const mod = await entry.load();
        const runner =
          (handler: CommandAction) =>
          async (...actionArgs: unknown[]) => {
            exitCode = await runHandler(handler, actionArgs, io);
          };
        mod.define(cmd, runner as Runner);
      }
    }
    suggestLongerFlags(program);
    await program.parseAsync(attachOptionalValues(program, argv), { from: 'user' });
    return exitCode;
  } catch (error) {
    return report(error, io, debug);
  }
}

/**
 * The tree `main` parses, with every command module loaded and defined (for `completion`, which reads its
 * subcommands, flags and arguments); its actions do nothing.
 */
export async function commandTree(io: IO): Promise<CommandUnknownOpts> {
  const { Command } = await import('@commander-js/extra-typings');
  const program = buildProgram(Command, io);
  for (const entry of COMMANDS) (await entry.load()).define(addCommand(program, entry), () => async () => {});
  return program;
}

function addCommand(program: CommandUnknownOpts, entry: CommandEntry): Command {
  return program.command(entry.name).description(entry.summary).helpGroup(`${entry.group} commands:`);
}

function buildProgram(Command: typeof import('@commander-js/extra-typings').Command, io: IO): CommandUnknownOpts {
  return (
    new Command('mailclean')
      .description('Manage your marketing platform account and clean mailing lists.')
      .version(VERSION, '-V, --version', 'print the version')
      .helpOption('-h, --help', 'show help for a command')
      // Typed for a help command without arguments; [command] only shows in its usage line.
      .addHelpCommand(
        new Command('help')
          .argument('[command|topic]')
          .description('show help for a command, or a help topic')
          .helpGroup('Other commands:') as unknown as Command,
      )
      .option('--profile <name>', 'stored profile to use (env: MAILCLEAN_PROFILE)')
      .option('--api-url <url>', 'platform base URL (env: MAILCLEAN_API_URL)')
      .option('--clean-url <url>', 'email cleaning base URL (env: MAILCLEAN_CLEAN_URL)')
      .option('--no-input', 'never prompt (env: MAILCLEAN_NO_INPUT=1; also when CI is set)')
      .option('--debug', 'log HTTP requests and timings on stderr, secrets redacted (env: MAILCLEAN_DEBUG=1)')
      .option('--no-color', 'no colour (env: NO_COLOR)')
      .option('-q, --quiet', 'no progress or notes')
      .showSuggestionAfterError(true)
      .exitOverride()
      .configureOutput({
        writeOut: (s) => io.stdout.write(s),
        // commander's errors quote what was typed (`unknown option '…'`).
        writeErr: (s) => io.stderr.write(forTerminal(s)),
        outputError: (s, write) => write(s.endsWith('\n') ? s : `${s}\n`),
      })
      .addHelpText(
        'after',
        `
With nothing configured, \`clean\` checks with the built-in engine and account commands use
the built-in sandbox. \`mailclean login --api-url URL --clean-url URL\` saves the service's URLs
with your tokens.

Exit codes: 0 ok, 1 error, 2 usage or bad input, 3 partial (rows unchecked), 4 authentication,
5 a --fail-when condition holds, 130/143 interrupted (SIGINT/SIGTERM).
Run \`mailclean <command> --help\` for a command's flags.

Help topics (\`mailclean help <topic>\`):
${Object.entries(HELP_TOPICS)
  .map(([name, summary]) => `  ${name.padEnd(13)}${summary}`)
  .join('\n')}`,
      )
  );
}

/**
 * commander suggests a flag only within 3 edits of the one typed, so `--summary` (for `--summary-json`) got none: a
 * flag that begins one of the command's (or a parent's) is suggested too; otherwise commander's own suggestion.
 */
function suggestLongerFlags(cmd: CommandUnknownOpts): void {
  const target = cmd as unknown as { unknownOption(flag: string): never };
  const commanders = target.unknownOption.bind(cmd);
  target.unknownOption = (flag) => {
    const typed = flag.split('=')[0]!;
    const flags: string[] = [];
    for (let c: CommandUnknownOpts | null = cmd; c; c = c.parent)
      for (const option of c.createHelp().visibleOptions(c)) if (option.long) flags.push(option.long);
    const longer = typed.startsWith('--') ? flags.filter((f) => f.startsWith(typed)) : [];
    if (longer.length === 0) return commanders(flag);
    return cmd.error(`error: unknown option '${flag}'\n(Did you mean ${longer.join(' or ')}?)`, {
      code: 'commander.unknownOption',
    });
  };
  for (const sub of cmd.commands) suggestLongerFlags(sub);
}

/**
 * A flag whose value is optional and one of a few words (`--fix-typos[=replace]`) takes the next argument only when
 * it is one of them: `clean --fix-typos list.csv` means the list, not a mode named list.csv.
 */
function attachOptionalValues(program: CommandUnknownOpts, argv: string[]): string[] {
  const options = program.commands.flatMap((cmd) => cmd.options);
  return argv.map((arg, i) => {
    const option = options.find((o) => o.long === arg && o.optional && o.argChoices && o.presetArg !== undefined);
    const next = argv[i + 1];
    if (!option || (next !== undefined && option.argChoices?.includes(next))) return arg;
    return `${arg}=${String(option.presetArg)}`;
  });
}

/** The first two positional arguments, skipping global options and their values (`help X`: the command or topic X). */
function positionals(argv: string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < argv.length && found.length < 2; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (GLOBAL_VALUE_OPTIONS.has(arg)) i++;
      continue;
    }
    found.push(arg);
  }
  return found;
}

async function runHandler(handler: CommandAction, actionArgs: unknown[], io: IO): Promise<number> {
  // commander calls actions with (...positionals, options, command).
  const cmd = actionArgs.at(-1) as Command;
  const args = actionArgs.slice(0, -2);
  const globals = cmd.optsWithGlobals() as GlobalOptions;
  const { Factory } = await import('./factory.js');
  const f = new Factory(io, globals, () => commandTree(io));
  try {
    // Parents parse options that appear after a subcommand too (`me update --json`), so merge them.
    const code = await handler(f, cmd.optsWithGlobals(), args);
    return code ?? ExitCode.ok;
  } finally {
    await f.close();
  }
}

function report(error: unknown, io: IO, debug: boolean): number {
  if (isCommanderError(error)) {
    if (
      error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.code === 'commander.help'
    ) {
      return ExitCode.ok;
    }
    // commander has already printed its one-line message.
    return ExitCode.usage;
  }
  if (error instanceof SilentError) return error.exitCode;
  // Stopped by a signal outside the sending phase: what was under way has been undone.
  if (error instanceof Interrupted || (error instanceof CancelError && io.signals.received)) {
    io.stderr.write('Interrupted.\n');
    return io.signals.exitCode;
  }
  const write = (text: string) => io.stderr.write(forTerminal(io.secrets?.redact(text) ?? text));
  if (error instanceof CliError) {
    write(`error: ${error.message}\n`);
    if (error.hint) write(`hint: ${error.hint}\n`);
    if (debug && error.stack) write(`${error.stack}\n`);
    return error.exitCode;
  }
  write(`error: unexpected failure: ${messageOf(error).split('\n')[0]}\n`);
  write(
    debug && error instanceof Error && error.stack ? `${error.stack}\n` : 'hint: run again with --debug for details\n',
  );
  return ExitCode.error;
}

function isCommanderError(error: unknown): error is { code: string; exitCode: number } {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('commander.');
}
