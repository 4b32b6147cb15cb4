// -o, --rejects, --summary-json and --report: resolved and probed before anything is spent.
import { resolveOutputPath, sameFile } from '../../clean/write/output-path.js';
import { UsageError } from '../../errors.js';
import type { CleanOptions } from './clean.js';

/**
 * Output paths are resolved and probed before anything is spent, so a typo cannot waste a run. No two name
 * the same file, and none is the input (through links too), unless --in-place says so for -o: then the input
 * is kept as INPUT.bak.
 */
export function outputTargets(
  input: string,
  opts: { output?: string; rejects?: string; summaryJson?: string; report?: string; inPlace?: boolean },
): Pick<CleanOptions, 'output' | 'rejects' | 'backup' | 'summaryJson' | 'report'> {
  for (const [flag, value] of [
    ['--rejects', opts.rejects],
    ['--summary-json', opts.summaryJson],
    ['--report', opts.report],
  ] as const) {
    if (value === '-') throw new UsageError(`${flag}: "-" means stdout, which carries the rows; name a file`);
  }
  const given = Object.entries({
    // `-o -` is stdout, as without -o (the convention of every tool that takes a file name).
    '--output': opts.output === '-' ? undefined : opts.output,
    '--rejects': opts.rejects,
    '--summary-json': opts.summaryJson,
    '--report': opts.report,
  }).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  given.forEach(([flag, path], i) => {
    const twin = given.slice(i + 1).find(([, other]) => sameFile(path, other));
    if (twin) throw new UsageError(`${flag} and ${twin[0]} name the same file`);
  });
  let backup: string | undefined;
  for (const [flag, path] of given) {
    if (input === '-' || !sameFile(path, input)) continue;
    if (flag === '--output' && opts.inPlace === true) backup = `${input}.bak`;
    else
      throw new UsageError(
        `${flag}: ${path} is the input file: writing it would overwrite your list`,
        flag === '--output'
          ? 'write elsewhere, or pass --in-place to replace the input (a copy is kept as INPUT.bak)'
          : 'write it elsewhere',
      );
  }
  if (opts.inPlace === true && backup === undefined) throw new UsageError('--in-place needs -o naming the input file');
  const target = (flag: string) => {
    const path = given.find(([f]) => f === flag)?.[1];
    return path === undefined ? undefined : resolveOutputPath(flag, path);
  };
  return {
    output: target('--output'),
    rejects: target('--rejects'),
    summaryJson: target('--summary-json'),
    report: target('--report'),
    backup,
  };
}
