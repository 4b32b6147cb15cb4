import { CancelError, CliError } from '../errors.js';
import type { IO } from './io.js';

// @inquirer/prompts is loaded only when a prompt is really shown.
async function inquirer() {
  return import('@inquirer/prompts');
}

function context(io: IO, signal: AbortSignal) {
  // Ctrl-C at a prompt arrives as a key press (raw mode); SIGTERM arrives as a signal and cancels it too.
  return { input: io.stdin, output: io.stderr, clearPromptOnDone: false, signal };
}

/**
 * Asks, turning the ways a prompt ends without an answer into errors: Ctrl-C or a signal (cancelled), and the input
 * closing (Ctrl-D pauses it and would leave inquirer waiting for ever): a pause no answer follows.
 */
async function guard<T>(io: IO, ask: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ended = new AbortController();
  let answered = false;
  const onPause = () => setImmediate(() => answered || ended.abort());
  io.stdin.on('pause', onPause);
  try {
    return await ask(AbortSignal.any([io.signals.stop, ended.signal]));
  } catch (error) {
    if (ended.signal.aborted) throw new CliError('no answer: the input ended (Ctrl-D)');
    if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError'))
      throw new CancelError();
    throw error;
  } finally {
    answered = true;
    io.stdin.off('pause', onPause);
  }
}

export async function promptText(
  io: IO,
  message: string,
  opts: { default?: string; required?: boolean } = {},
): Promise<string> {
  const { input } = await inquirer();
  return guard(io, (signal) =>
    input(
      {
        message,
        default: opts.default,
        required: opts.required ?? true,
      },
      context(io, signal),
    ),
  );
}

export async function promptSecret(io: IO, message: string): Promise<string> {
  const { password } = await inquirer();
  return guard(io, (signal) =>
    password({ message, mask: '*', validate: (v: string) => (v.length > 0 ? true : 'required') }, context(io, signal)),
  );
}

export async function promptConfirm(io: IO, message: string, def = true): Promise<boolean> {
  const { confirm } = await inquirer();
  return guard(io, (signal) => confirm({ message, default: def }, context(io, signal)));
}
