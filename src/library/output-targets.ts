// Where a run writes, resolved and probed before anything is spent, so a typo cannot waste a run.

import { basename, dirname, join } from 'node:path';
import type { OutputsRequest } from '../clean/run/request.js';
import { resolveOutputPath, sameFile } from '../clean/write/output-path.js';
import { UsageError } from '../errors.js';
import { type Naming, optionName } from './option-checks.js';

export type OutputTargets = Pick<OutputsRequest, 'output' | 'rejects' | 'summaryJson' | 'report' | 'backup'>;

const TARGETS = ['output', 'rejects', 'summaryJson', 'report'] as const;

/** No two outputs name the same file, and none is the input (through links too) unless --in-place says so for -o. */
export function outputTargets(
  input: string,
  opts: { [K in (typeof TARGETS)[number]]?: string } & { inPlace?: boolean },
  name: Naming = optionName,
): OutputTargets {
  const given: Array<{ key: (typeof TARGETS)[number]; flag: string; path: string }> = [];
  for (const key of TARGETS) {
    const path = opts[key];
    if (path === '-' && key !== 'output')
      throw new UsageError(`${name(key)}: "-" means stdout, which carries the rows; name a file`);
    if (path !== undefined && path !== '-') given.push({ key, flag: name(key), path });
  }
  given.forEach(({ flag, path }, i) => {
    const twin = given.slice(i + 1).find((other) => sameFile(path, other.path));
    if (twin) throw new UsageError(`${flag} and ${twin.flag} name the same file`);
  });
  const targets: OutputTargets = {};
  for (const { key, flag, path } of given) {
    if (input === '-' || !sameFile(path, input)) continue;
    if (key === 'output' && opts.inPlace === true) targets.backup = backupOf(input);
    else
      throw new UsageError(
        `${flag}: ${path} is the input file: writing it would overwrite your list`,
        key === 'output'
          ? `write elsewhere, or pass ${name('inPlace')} to replace the input (a copy is kept as NAME.bak.EXT)`
          : 'write it elsewhere',
      );
  }
  const { backup } = targets;
  if (opts.inPlace === true && backup === undefined)
    throw new UsageError(`${name('inPlace')} needs ${name('outputShort')} naming the input file`);
  const onBackup = backup === undefined ? undefined : given.find(({ path }) => sameFile(path, backup));
  if (onBackup)
    throw new UsageError(
      `${onBackup.flag}: ${onBackup.path} is where ${name('inPlace')} keeps your list`,
      'write it elsewhere',
    );
  for (const { key, flag, path } of given) targets[key] = resolveOutputPath(flag, path);
  return targets;
}

/** Where --in-place keeps the list it replaces: `book.bak.xlsx`, its extension last, so spreadsheet programs open it. */
export function backupOf(input: string): string {
  const name = basename(input);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? join(dirname(input), `${name.slice(0, dot)}.bak${name.slice(dot)}`) : `${input}.bak`;
}
