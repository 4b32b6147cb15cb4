// Completion scripts for bash and zsh, which share their helper functions.
import { type Flag, type Spec, sq, type Values, walk } from './spec.js';

function shHelpers(root: Spec): string {
  const specs = [...walk(root)];
  const valueKind = (v: Values): string => (typeof v === 'string' ? v : `words:${v.words.join(' ')}`);
  const valueCases = (flags: Flag[], pathPattern: string) =>
    flags
      .filter((f) => f.value !== undefined)
      .map(
        (f) =>
          `    ${f.names.map((n) => `${pathPattern}${sq(`|${n}`)}`).join('|')}) echo ${sq(f.optional ? 'optional' : valueKind(f.value!))} ;;`,
      );
  return `_mailclean_subcommand() {
  case "$1|$2" in
${specs.flatMap((s) => s.subcommands.map((c) => `    ${sq(`${s.path}|${c.path.split(' ').pop()}`)}) echo ${sq(c.path)} ;;`)).join('\n')}
  esac
}
_mailclean_subcommands() {
  case "$1" in
${specs
  .filter((s) => s.subcommands.length > 0)
  .map((s) => `    ${sq(s.path)}) echo ${sq(s.subcommands.map((c) => c.path.split(' ').pop()).join(' '))} ;;`)
  .join('\n')}
  esac
}
_mailclean_value() {
  case "$1|$2" in
${specs
  .filter((s) => s !== root)
  .flatMap((s) => valueCases(s.flags, sq(s.path)))
  .join('\n')}
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

export function bash(root: Spec): string {
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

export function zsh(root: Spec): string {
  const specs = [...walk(root)];
  const described = (entries: Array<[string, string]>) =>
    entries.map(([name, text]) => `${name.replace(/:/g, '\\:')}:${text.replace(/\n/g, ' ')}`).join('\n');
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
${specs
  .filter((s) => s.subcommands.length > 0)
  .map(
    (s) =>
      `    ${sq(s.path)}) print -r -- ${sq(described(s.subcommands.map((c): [string, string] => [c.path.split(' ').pop()!, c.description])))} ;;`,
  )
  .join('\n')}
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
