import { CancelError, CliError } from '../errors.js';
import type { IO } from './io.js';

type Prompts = typeof import('@inquirer/prompts');
type Context = NonNullable<Parameters<Prompts['input']>[1]>;

/**
 * Asks, turning the ways a prompt ends without an answer into errors: Ctrl-C or a signal (cancelled), and the input
 * closing (Ctrl-D pauses it and would leave inquirer waiting for ever): a pause no answer follows.
 */
async function ask<T>(io: IO, prompt: (prompts: Prompts, context: Context) => Promise<T>): Promise<T> {
  // Loaded only when a prompt is really shown.
  const prompts = await import('@inquirer/prompts');
  const ended = new AbortController();
  let answered = false;
  const onPause = () => setImmediate(() => answered || ended.abort());
  io.stdin.on('pause', onPause);
  // Ctrl-C at a prompt arrives as a key press (raw mode); SIGTERM arrives as a signal and cancels it too.
  const signal = AbortSignal.any([io.signals.stop, ended.signal]);
  try {
    return await prompt(prompts, { input: io.stdin, output: io.stderr, clearPromptOnDone: false, signal });
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

export function promptText(
  io: IO,
  message: string,
  opts: { default?: string; required?: boolean } = {},
): Promise<string> {
  const required = opts.required ?? true;
  return ask(io, ({ input }, context) => input({ message, default: opts.default, required }, context));
}

export function promptSecret(io: IO, message: string): Promise<string> {
  const validate = (v: string) => (v.length > 0 ? true : 'required');
  return ask(io, ({ password }, context) => password({ message, mask: '*', validate }, context));
}

export function promptConfirm(io: IO, message: string, def = true): Promise<boolean> {
  return ask(io, ({ confirm }, context) => confirm({ message, default: def }, context));
}
