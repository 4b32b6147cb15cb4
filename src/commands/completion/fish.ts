// The completion script for fish: `complete` lines conditioned on where the cursor is in the command tree.
import { type Flag, fq, type Spec, type Values, walk } from './spec.js';

/** Fish functions that find the command path and the argument position of the words before the cursor. */
const FISH_STATE = `# "PATH|N": the command path of the words before the cursor and how many arguments follow it.
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
`;

function positionalArgs(v: Values): string {
  if (v === 'files') return '-F';
  if (v === 'dirs') return `-a '(__fish_complete_directories)'`;
  return typeof v === 'object' ? `-a ${fq(v.words.join(' '))}` : '';
}

/** A case pattern is a wildcard even when quoted, and must be quoted so the shell does not glob it. */
function valueCases(flags: Flag[], pathPattern: string): string[] {
  return flags
    .filter((f) => f.value !== undefined)
    .map(
      (f) =>
        `    case ${f.names.map((n) => fq(`${pathPattern}|${n}`)).join(' ')}\n      echo ${f.optional ? 'optional' : 'value'}`,
    );
}

export function fish(root: Spec): string {
  const specs = [...walk(root)];
  const lines: string[] = [];
  const complete = (condition: string | undefined, rest: string) =>
    lines.push(`complete -c mailclean${condition ? ` -n ${fq(condition)}` : ''} ${rest}`);
  const valueArgs = (v: Values | undefined, optional: boolean): string => {
    if (v === undefined || optional) return '';
    if (v === 'files') return ' -r -F';
    if (v === 'dirs') return ` -r -f -a '(__fish_complete_directories)'`;
    return v === 'none' ? ' -r -f' : ` -r -f -a ${fq(v.words.join(' '))}`;
  };
  const flagLine = (condition: string | undefined, f: Flag) =>
    complete(
      condition,
      `${f.short ? `-s ${f.short.slice(1)} ` : ''}${f.long ? `-l ${f.long.slice(2)} ` : ''}-d ${fq(f.description)}${valueArgs(f.value, f.optional)}`,
    );

  complete(undefined, '-f');
  for (const f of root.flags) flagLine(undefined, f);
  for (const s of specs) {
    if (s !== root) for (const f of s.flags) flagLine(`__mailclean_in ${fq(s.path)}`, f);
    for (const c of s.subcommands)
      complete(`__mailclean_at ${fq(s.path)} 0`, `-a ${fq(c.path.split(' ').pop()!)} -d ${fq(c.description)}`);
    s.positionals.forEach((v, i) => {
      if (v !== 'none') complete(`__mailclean_at ${fq(s.path)} ${i}`, positionalArgs(v));
    });
  }
  return `# fish completion for mailclean, generated from its command definitions by \`mailclean completion fish\`
function __mailclean_subcommand
  switch "$argv[1]|$argv[2]"
${specs.flatMap((s) => s.subcommands.map((c) => `    case ${fq(`${s.path}|${c.path.split(' ').pop()}`)}\n      echo ${fq(c.path)}`)).join('\n')}
  end
end
function __mailclean_value
  switch "$argv[1]|$argv[2]"
${specs
  .filter((s) => s !== root)
  .flatMap((s) => valueCases(s.flags, s.path))
  .join('\n')}
${valueCases(root.flags, '*').join('\n')}
  end
end
${FISH_STATE}${lines.join('\n')}
`;
}
