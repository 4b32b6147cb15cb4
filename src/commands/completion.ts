import { Argument, type Command, type Option } from 'commander';
import type { Runner } from './index.js';
import type { Factory } from '../factory.js';
import { PROFILE_KEYS } from '../config/keys.js';

// The scripts are generated from the command tree main.ts parses, so a new command, flag or choice
// completes without anyone restating it here.

const SHELLS = { bash, zsh, fish } as const;
type Shell = keyof typeof SHELLS;

export function define(cmd: Command, run: Runner): void {
  cmd
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(Object.keys(SHELLS)))
    .addHelpText(
      'after',
      `
Examples:
  mailclean completion bash > ~/.local/share/bash-completion/completions/mailclean
  mailclean completion zsh > "\${fpath[1]}/_mailclean"
  mailclean completion fish > ~/.config/fish/completions/mailclean.fish`,
    )
    .action(run((f, _opts, [shell]) => completion({ shell: shell as Shell }, f)));
}

export async function completion({ shell }: { shell: Shell }, f: Factory): Promise<number> {
  const { commandTree } = await import('../main.js');
  const program = await commandTree(f.io.raw);
  f.io.out(SHELLS[shell](describe(program, '', [])));
  return 0;
}

/** How a value completes: from a list of words, as a file or directory name, or not at all. */
type Values = { words: string[] } | 'files' | 'dirs' | 'none';

interface Flag {
  names: string[];
  long: string | undefined;
  short: string | undefined;
  description: string;
  /** Absent: the flag takes no value. */
  value?: Values;
  /** The value may be left out (`--json [fields]`): the next word is the value only if it is not a flag. */
  optional: boolean;
}

interface Spec {
  /** Command names from the root, space-separated ('' for mailclean itself, 'auth token'). */
  path: string;
  description: string;
  flags: Flag[];
  subcommands: Spec[];
  positionals: Values[];
}

/** Profile keys `config get|set` take (secrets are refused there). */
const SETTABLE_KEYS = PROFILE_KEYS.filter((k) => !k.secret).map((k) => k.key);

function describe(cmd: Command, path: string, siblings: string[]): Spec {
  const help = cmd.createHelp();
  const children = help.visibleCommands(cmd);
  const names = children.map((c) => c.name()).filter((n) => n !== 'help');
  return {
    path,
    description: cmd.description(),
    flags: help.visibleOptions(cmd).map(flag),
    subcommands: children.map((c) => describe(c, path ? `${path} ${c.name()}` : c.name(), names)),
    positionals: cmd.registeredArguments.map((arg) => positional(arg, siblings)),
  };
}

function flag(option: Option): Flag {
  const placeholder = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? '';
  const f: Flag = {
    names: [option.short, option.long].filter((n): n is string => n !== undefined),
    long: option.long,
    short: option.short,
    description: option.description,
    optional: option.optional,
  };
  if (option.required || option.optional) {
    f.value = option.argChoices ? { words: option.argChoices } : /file$/.test(placeholder) ? 'files' : /dir$/.test(placeholder) ? 'dirs' : 'none';
  }
  return f;
}

function positional(arg: Argument, siblings: string[]): Values {
  if (arg.argChoices) return { words: arg.argChoices };
  switch (arg.name()) {
    case 'input':
    case 'file':
      return 'files';
    case 'key':
      return { words: SETTABLE_KEYS };
    case 'command': // `help [command]`
      return { words: siblings };
    default:
      return 'none';
  }
}

function* walk(spec: Spec): Generator<Spec> {
  yield spec;
  for (const sub of spec.subcommands) yield* walk(sub);
}

/** Single-quoted for sh. */
function sq(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/** Single-quoted for fish, where a backslash escapes a backslash or a quote even inside quotes. */
function fq(text: string): string {
  return `'${text.replace(/[\\']/g, '\\$&')}'`;
}

/** bash and zsh share these: plain functions over `case`, run on the words before the cursor. */
function shHelpers(root: Spec): string {
  const specs = [...walk(root)];
  const valueKind = (v: Values): string => (typeof v === 'string' ? v : `words:${v.words.join(' ')}`);
  const valueCases = (flags: Flag[], pathPattern: string) =>
    flags
      .filter((f) => f.value !== undefined)
      .map((f) => `    ${f.names.map((n) => `${pathPattern}${sq(`|${n}`)}`).join('|')}) echo ${sq(f.optional ? 'optional' : valueKind(f.value!))} ;;`);
  return `_mailclean_subcommand() {
  case "$1|$2" in
${specs.flatMap((s) => s.subcommands.map((c) => `    ${sq(`${s.path}|${c.path.split(' ').pop()}`)}) echo ${sq(c.path)} ;;`)).join('\n')}
  esac
}
_mailclean_subcommands() {
  case "$1" in
${specs.filter((s) => s.subcommands.length > 0).map((s) => `    ${sq(s.path)}) echo ${sq(s.subcommands.map((c) => c.path.split(' ').pop()).join(' '))} ;;`).join('\n')}
  esac
}
_mailclean_value() {
  case "$1|$2" in
${specs.filter((s) => s !== root).flatMap((s) => valueCases(s.flags, sq(s.path))).join('\n')}
${valueCases(root.flags, '*').join('\n')}
  esac
}
_mailclean_flags() {
  case "$1" in
${specs.map((s) => `    ${sq(s.path)}) echo ${sq([...new Set([...s.flags, ...(s === root ? [] : root.flags)].flatMap((f) => f.names))].join(' '))} ;;`).join('\n')}
  esac
}
_mailclean_positional() {
  case "$1|$2" in
${specs.flatMap((s) => s.positionals.map((v, i) => `    ${sq(`${s.path}|${i}`)}) echo ${sq(valueKind(v))} ;;`)).join('\n')}
  esac
}
# Sets cmdpath, positional (arguments after the command path) and pending (how the next word completes
# when the last word is a flag that takes a value) from the words given. Global flags may come anywhere.
_mailclean_walk() {
  cmdpath='' positional=0 pending=''
  local word next
  for word in "$@"; do
    [[ $word == '=' ]] && continue
    if [[ -n $pending ]]; then
      if [[ $pending != optional || $word != -* ]]; then pending=''; continue; fi
      pending=''
    fi
    case $word in
      --*=*) ;;
      -*) pending=$(_mailclean_value "$cmdpath" "$word") ;;
      *)
        next=$(_mailclean_subcommand "$cmdpath" "$word")
        if [[ -n $next && $positional -eq 0 ]]; then cmdpath=$next; else positional=$((positional + 1)); fi ;;
    esac
  done
}`;
}

function bash(root: Spec): string {
  return `# bash completion for mailclean, generated from its command definitions by \`mailclean completion bash\`
${shHelpers(root)}
_mailclean_values() {
  local IFS=$'\\n'
  case $1 in
    words:*) IFS=$' \\t\\n'; COMPREPLY+=( $(compgen -W "\${1#words:}" -- "$2") ) ;;
    files) compopt -o filenames 2>/dev/null; COMPREPLY+=( $(compgen -f -- "$2") ) ;;
    dirs) compopt -o filenames 2>/dev/null; COMPREPLY+=( $(compgen -d -- "$2") ) ;;
  esac
}
_mailclean() {
  local cur=\${COMP_WORDS[COMP_CWORD]} cmdpath positional pending
  _mailclean_walk "\${COMP_WORDS[@]:1:COMP_CWORD-1}"
  # bash splits --flag=value at '=': the value being completed follows a lone '='.
  [[ $cur == '=' ]] && cur=''
  COMPREPLY=()
  if [[ -n $pending && $pending != optional ]]; then
    _mailclean_values "$pending" "$cur"
  elif [[ $cur == -* ]]; then
    COMPREPLY=( $(compgen -W "$(_mailclean_flags "$cmdpath")" -- "$cur") )
  else
    [[ $positional -eq 0 ]] && COMPREPLY=( $(compgen -W "$(_mailclean_subcommands "$cmdpath")" -- "$cur") )
    _mailclean_values "$(_mailclean_positional "$cmdpath" "$positional")" "$cur"
  fi
}
complete -F _mailclean mailclean
`;
}

function zsh(root: Spec): string {
  const specs = [...walk(root)];
  const described = (entries: Array<[string, string]>) => entries.map(([name, text]) => `${name.replace(/:/g, '\\:')}:${text.replace(/\n/g, ' ')}`).join('\n');
  return `#compdef mailclean
# zsh completion for mailclean, generated from its command definitions by \`mailclean completion zsh\`
${shHelpers(root)}
_mailclean_flag_descriptions() {
  case "$1" in
${specs.map((s) => `    ${sq(s.path)}) print -r -- ${sq(described([...new Map([...s.flags, ...(s === root ? [] : root.flags)].flatMap((f) => f.names.map((n): [string, string] => [n, f.description])))]))} ;;`).join('\n')}
  esac
}
_mailclean_subcommand_descriptions() {
  case "$1" in
${specs.filter((s) => s.subcommands.length > 0).map((s) => `    ${sq(s.path)}) print -r -- ${sq(described(s.subcommands.map((c): [string, string] => [c.path.split(' ').pop()!, c.description])))} ;;`).join('\n')}
  esac
}
_mailclean_values() {
  case $1 in
    words:*) compadd -- \${=\${1#words:}} ;;
    files) _files ;;
    dirs) _files -/ ;;
  esac
}
_mailclean() {
  local cur=\${words[CURRENT]} cmdpath positional pending
  local -a entries
  _mailclean_walk "\${(@)words[2,CURRENT-1]}"
  if [[ $cur == --*=* ]]; then
    pending=$(_mailclean_value "$cmdpath" "\${cur%%=*}")
    compset -P '*='
  fi
  if [[ -n $pending && $pending != optional ]]; then
    _mailclean_values "$pending"
  elif [[ $cur == -* ]]; then
    entries=( \${(f)"$(_mailclean_flag_descriptions "$cmdpath")"} )
    _describe -t options 'option' entries
  else
    if (( positional == 0 )); then
      entries=( \${(f)"$(_mailclean_subcommand_descriptions "$cmdpath")"} )
      (( \${#entries} )) && _describe -t commands 'command' entries
    fi
    _mailclean_values "$(_mailclean_positional "$cmdpath" "$positional")"
  fi
}
if [[ $funcstack[1] == _mailclean ]]; then _mailclean "$@"; else compdef _mailclean mailclean; fi
`;
}

function fish(root: Spec): string {
  const specs = [...walk(root)];
  const lines: string[] = [];
  const complete = (condition: string | undefined, rest: string) => lines.push(`complete -c mailclean${condition ? ` -n ${fq(condition)}` : ''} ${rest}`);
  const valueArgs = (v: Values | undefined, optional: boolean): string => {
    if (v === undefined || optional) return '';
    if (v === 'files') return ' -r -F';
    if (v === 'dirs') return ` -r -f -a '(__fish_complete_directories)'`;
    return v === 'none' ? ' -r -f' : ` -r -f -a ${fq(v.words.join(' '))}`;
  };
  const flagLine = (condition: string | undefined, f: Flag) =>
    complete(condition, `${f.short ? `-s ${f.short.slice(1)} ` : ''}${f.long ? `-l ${f.long.slice(2)} ` : ''}-d ${fq(f.description)}${valueArgs(f.value, f.optional)}`);

  complete(undefined, '-f');
  for (const f of root.flags) flagLine(undefined, f);
  for (const s of specs) {
    if (s !== root) for (const f of s.flags) flagLine(`__mailclean_in ${fq(s.path)}`, f);
    for (const c of s.subcommands) complete(`__mailclean_at ${fq(s.path)} 0`, `-a ${fq(c.path.split(' ').pop()!)} -d ${fq(c.description)}`);
    s.positionals.forEach((v, i) => {
      const condition = `__mailclean_at ${fq(s.path)} ${i}`;
      if (v === 'files') complete(condition, '-F');
      else if (v === 'dirs') complete(condition, `-a '(__fish_complete_directories)'`);
      else if (v !== 'none') complete(condition, `-a ${fq(v.words.join(' '))}`);
    });
  }
  // A case pattern is a wildcard even when quoted, and must be quoted so the shell does not glob it.
  const valueCases = (flags: Flag[], pathPattern: string) =>
    flags
      .filter((f) => f.value !== undefined)
      .map((f) => `    case ${f.names.map((n) => fq(`${pathPattern}|${n}`)).join(' ')}\n      echo ${f.optional ? 'optional' : 'value'}`);

  return `# fish completion for mailclean, generated from its command definitions by \`mailclean completion fish\`
function __mailclean_subcommand
  switch "$argv[1]|$argv[2]"
${specs.flatMap((s) => s.subcommands.map((c) => `    case ${fq(`${s.path}|${c.path.split(' ').pop()}`)}\n      echo ${fq(c.path)}`)).join('\n')}
  end
end
function __mailclean_value
  switch "$argv[1]|$argv[2]"
${specs.filter((s) => s !== root).flatMap((s) => valueCases(s.flags, s.path)).join('\n')}
${valueCases(root.flags, '*').join('\n')}
  end
end
# "PATH|N": the command path of the words before the cursor and how many arguments follow it.
function __mailclean_state
  set -l cmdpath ''
  set -l positional 0
  set -l pending ''
  set -l words (commandline -opc)
  for word in $words[2..-1]
    if test -n "$pending"
      set -l was $pending
      set pending ''
      if test "$was" != optional; or not string match -q -- '-*' $word
        continue
      end
    end
    switch $word
      case '--*=*'
      case '-*'
        set pending (__mailclean_value "$cmdpath" $word)
      case '*'
        set -l next (__mailclean_subcommand "$cmdpath" $word)
        if test -n "$next" -a $positional -eq 0
          set cmdpath $next
        else
          set positional (math $positional + 1)
        end
    end
  end
  echo "$cmdpath|$positional"
end
function __mailclean_in
  string match -q -- "$argv[1]|*" (__mailclean_state)
end
function __mailclean_at
  test (__mailclean_state) = "$argv[1]|$argv[2]"
end
${lines.join('\n')}
`;
}
