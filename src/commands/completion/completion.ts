import { Argument, type Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import type { Runner } from '../index.js';
import { fish } from './fish.js';
import { bash, zsh } from './sh.js';
import { describe } from './spec.js';

// The scripts are generated from the command tree main.ts parses, so a new command, flag or choice
// completes without anyone restating it here.

const SHELLS = { bash, zsh, fish } as const;
type Shell = keyof typeof SHELLS;

export function define(cmd: Command, run: Runner): void {
  cmd
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(Object.keys(SHELLS) as Shell[]))
    .addHelpText(
      'after',
      `
Examples:
  mailclean completion bash > ~/.local/share/bash-completion/completions/mailclean
  mailclean completion zsh > "\${fpath[1]}/_mailclean"
  mailclean completion fish > ~/.config/fish/completions/mailclean.fish`,
    )
    .action(run((f, _opts, [shell]) => completion({ shell }, f)));
}

export async function completion({ shell }: { shell: Shell }, f: Factory): Promise<number> {
  const program = await f.commandTree();
  f.io.out(SHELLS[shell](describe(program, '', [])));
  return 0;
}
