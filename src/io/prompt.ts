import { CancelError, CliError } from '../errors.js';
import type { IOStreams } from './streams.js';

type Prompts = typeof import('@inquirer/prompts');
type Context = NonNullable<Parameters<Prompts['input']>[1]>;

const same = (text: string) => text;
/** Inquirer's look without its colours, for a command whose colour is off (--no-color, NO_COLOR, a pipe). */
const PLAIN_THEME = {
  prefix: { idle: '?', done: '✔' },
  style: {
    answer: same,
    message: same,
    error: (text: string) => `> ${text}`,
    defaultAnswer: (text: string) => `(${text})`,
    help: same,
    highlight: same,
    key: (text: string) => `<${text}>`,
  },
};

/**
 * Asks, turning the ways a prompt ends without an answer into errors: Ctrl-C or a signal (cancelled), and the input
 * closing (Ctrl-D pauses it and would leave inquirer waiting for ever): a pause no answer follows.
 */
async function ask<T>(
  streams: IOStreams,
  prompt: (prompts: Prompts, context: Context, theme: typeof PLAIN_THEME | undefined) => Promise<T>,
): Promise<T> {
  const io = streams.raw;
  // Loaded only when a prompt is really shown.
  const prompts = await import('@inquirer/prompts');
  const ended = new AbortController();
  let answered = false;
  const onPause = () => setImmediate(() => answered || ended.abort());
  io.stdin.on('pause', onPause);
  // Ctrl-C at a prompt arrives as a key press (raw mode); SIGTERM arrives as a signal and cancels it too.
  const signal = AbortSignal.any([io.signals.stop, ended.signal]);
  try {
    const context = { input: io.stdin, output: io.stderr, clearPromptOnDone: false, signal };
    return await prompt(prompts, context, streams.color ? undefined : PLAIN_THEME);
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
  io: IOStreams,
  message: string,
  opts: { default?: string; required?: boolean } = {},
): Promise<string> {
  const required = opts.required ?? true;
  return ask(io, ({ input }, context, theme) => input({ message, default: opts.default, required, theme }, context));
}

export function promptSecret(io: IOStreams, message: string): Promise<string> {
  const validate = (v: string) => (v.length > 0 ? true : 'required');
  return ask(io, ({ password }, context, theme) => password({ message, mask: '*', validate, theme }, context));
}

export function promptConfirm(io: IOStreams, message: string, def = true): Promise<boolean> {
  return ask(io, ({ confirm }, context, theme) => confirm({ message, default: def, theme }, context));
}
