import { CancelError } from '../errors.js';
import type { IO } from './io.js';

// @inquirer/prompts is loaded only when a prompt is really shown.
async function inquirer() {
  return import('@inquirer/prompts');
}

function context(io: IO) {
  // Ctrl-C at a prompt arrives as a key press (raw mode); SIGTERM arrives as a signal and cancels it too.
  return { input: io.stdin, output: io.stderr, clearPromptOnDone: false, signal: io.signals.stop };
}

async function guard<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError'))
      throw new CancelError();
    throw error;
  }
}

export async function promptText(
  io: IO,
  message: string,
  opts: { default?: string; required?: boolean } = {},
): Promise<string> {
  const { input } = await inquirer();
  return guard(() =>
    input(
      {
        message,
        default: opts.default,
        required: opts.required ?? true,
      },
      context(io),
    ),
  );
}

export async function promptSecret(io: IO, message: string): Promise<string> {
  const { password } = await inquirer();
  return guard(() =>
    password({ message, mask: '*', validate: (v: string) => (v.length > 0 ? true : 'required') }, context(io)),
  );
}

export async function promptConfirm(io: IO, message: string, def = true): Promise<boolean> {
  const { confirm } = await inquirer();
  return guard(() => confirm({ message, default: def }, context(io)));
}
