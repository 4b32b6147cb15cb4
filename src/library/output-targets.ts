// Where a run writes, resolved and probed before anything is spent, so a typo cannot waste a run.

import { basename, dirname, join } from 'node:path';
import type { OutputPath } from '../clean/write/output-path.js';
import { resolveOutputPath, sameFile } from '../clean/write/output-path.js';
import { UsageError } from '../errors.js';

export interface OutputNames {
  output: string;
  outputShort: string;
  rejects: string;
  summaryJson: string;
  report: string;
  inPlace: string;
}

export const OPTION_NAMES: OutputNames = {
  output: 'output',
  outputShort: 'output',
  rejects: 'rejects',
  summaryJson: 'summaryJson',
  report: 'report',
  inPlace: 'inPlace',
};

export interface OutputTargets {
  output?: OutputPath;
  rejects?: OutputPath;
  summaryJson?: OutputPath;
  report?: OutputPath;
  /** With in-place: where the input is copied before the output replaces it. */
  backup?: string;
}

/** No two outputs name the same file, and none is the input (through links too) unless --in-place says so for -o. */
export function outputTargets(
  input: string,
  opts: { output?: string; rejects?: string; summaryJson?: string; report?: string; inPlace?: boolean },
  names: OutputNames = OPTION_NAMES,
): OutputTargets {
  for (const [flag, value] of [
    [names.rejects, opts.rejects],
    [names.summaryJson, opts.summaryJson],
    [names.report, opts.report],
  ] as const) {
    if (value === '-') throw new UsageError(`${flag}: "-" means stdout, which carries the rows; name a file`);
  }
  const given = Object.entries({
    [names.output]: opts.output === '-' ? undefined : opts.output,
    [names.rejects]: opts.rejects,
    [names.summaryJson]: opts.summaryJson,
    [names.report]: opts.report,
  }).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  given.forEach(([flag, path], i) => {
    const twin = given.slice(i + 1).find(([, other]) => sameFile(path, other));
    if (twin) throw new UsageError(`${flag} and ${twin[0]} name the same file`);
  });
  let backup: string | undefined;
  for (const [flag, path] of given) {
    if (input === '-' || !sameFile(path, input)) continue;
    if (flag === names.output && opts.inPlace === true) backup = backupOf(input);
    else
      throw new UsageError(
        `${flag}: ${path} is the input file: writing it would overwrite your list`,
        flag === names.output
          ? `write elsewhere, or pass ${names.inPlace} to replace the input (a copy is kept as NAME.bak.EXT)`
          : 'write it elsewhere',
      );
  }
  if (opts.inPlace === true && backup === undefined)
    throw new UsageError(`${names.inPlace} needs ${names.outputShort} naming the input file`);
  const target = (flag: string) => {
    const path = given.find(([f]) => f === flag)?.[1];
    return path === undefined ? undefined : resolveOutputPath(flag, path);
  };
  return {
    output: target(names.output),
    rejects: target(names.rejects),
    summaryJson: target(names.summaryJson),
    report: target(names.report),
    backup,
  };
}

/** Where --in-place keeps the list it replaces: `book.bak.xlsx`, its extension last, so spreadsheet programs open it. */
export function backupOf(input: string): string {
  const name = basename(input);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? join(dirname(input), `${name.slice(0, dot)}.bak${name.slice(dot)}`) : `${input}.bak`;
}
