import { Argument, type Command } from '@commander-js/extra-typings';
import type { Runner } from '../index.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function define(cmd: Command, run: Runner): void {
  cmd
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .addHelpText(
      'after',
      `
Examples:
  mailclean completion bash > ~/.local/share/bash-completion/completions/mailclean
  mailclean completion zsh > "\${fpath[1]}/_mailclean"
  mailclean completion fish > ~/.config/fish/completions/mailclean.fish`,
    )
    .action(run(async (f, _opts, [shell]) => (await import('../completion/completion.js')).completion({ shell }, f)));
}
