import type { Command } from 'commander';
import type { Runner } from './index.js';
import type { Ctx } from '../context.js';
import { UsageError } from '../errors.js';
import { COMMANDS } from './index.js';

const SUBCOMMANDS: Record<string, string[]> = {
  auth: ['status', 'token'],
  me: ['update'],
  config: ['get', 'set', 'unset', 'list', 'path'],
};
const GLOBAL_FLAGS = ['--profile', '--api-url', '--clean-url', '--no-input', '--debug', '--no-color', '--quiet', '--help', '--version'];

export function define(cmd: Command, run: Runner): void {
  cmd
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      `
Examples:
  mailclean completion bash > ~/.local/share/bash-completion/completions/mailclean
  mailclean completion zsh > "\${fpath[1]}/_mailclean"
  mailclean completion fish > ~/.config/fish/completions/mailclean.fish`,
    )
    .action(run(completion));
}

async function completion(ctx: Ctx, _opts: Record<string, unknown>, [shell]: unknown[]): Promise<number> {
  const names = COMMANDS.map((c) => c.name);
  switch (shell) {
    case 'bash':
      ctx.out(bash(names));
      return 0;
    case 'zsh':
      ctx.out(zsh());
      return 0;
    case 'fish':
      ctx.out(fish());
      return 0;
    default:
      throw new UsageError(`unknown shell "${String(shell)}"`, 'choose bash, zsh or fish');
  }
}

function bash(names: string[]): string {
  const subs = Object.entries(SUBCOMMANDS).map(([c, s]) => `    ${c}) words="${s.join(' ')}" ;;`).join('\n');
  return `# bash completion for mailclean
_mailclean() {
  local cur cmd words
  cur="\${COMP_WORDS[COMP_CWORD]}"
  cmd="\${COMP_WORDS[1]}"
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=( $(compgen -W "${names.join(' ')} help ${GLOBAL_FLAGS.join(' ')}" -- "$cur") )
    return
  fi
  case "$cmd" in
${subs}
    clean) COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
    *) words="" ;;
  esac
  COMPREPLY=( $(compgen -W "$words ${GLOBAL_FLAGS.join(' ')}" -- "$cur") )
}
complete -o default -F _mailclean mailclean
`;
}

function zsh(): string {
  const lines = COMMANDS.map((c) => `    '${c.name}:${c.summary.replace(/'/g, '')}'`).join('\n');
  const subs = Object.entries(SUBCOMMANDS).map(([c, s]) => `      ${c}) _values 'subcommand' ${s.join(' ')} ;;`).join('\n');
  return `#compdef mailclean
_mailclean() {
  local -a commands
  commands=(
${lines}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  case "$words[2]" in
${subs}
    *) _files ;;
  esac
}
_mailclean "$@"
`;
}

function fish(): string {
  const cmds = COMMANDS.map((c) => `complete -c mailclean -n '__fish_use_subcommand' -a '${c.name}' -d '${c.summary.replace(/'/g, '')}'`).join('\n');
  const subs = Object.entries(SUBCOMMANDS)
    .map(([c, s]) => `complete -c mailclean -n '__fish_seen_subcommand_from ${c}' -a '${s.join(' ')}'`)
    .join('\n');
  const flags = GLOBAL_FLAGS.map((f) => `complete -c mailclean -l '${f.slice(2)}'`).join('\n');
  return `# fish completion for mailclean\n${cmds}\n${subs}\n${flags}\n`;
}
