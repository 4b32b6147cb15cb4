// The decisions of a review not yet written to its list, kept beside the list after every key: an interrupted or
// crashed review loses nothing, and `review FILE` again goes on from them.
import { readFileSync, rmSync } from 'node:fs';
import { writeFileAtomic } from '../atomic-write.js';
import { UsageError } from '../errors.js';
import type { Decision, Step } from './decisions.js';

const VERSION = 1;

export function sideFilePath(list: string): string {
  return `${list}.review.json`;
}

/** The steps saved beside `list`, or none; a file that is not one of ours is refused rather than overwritten. */
export function loadSteps(list: string): Step[] {
  const path = sideFilePath(list);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new UsageError(`${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const steps = parseSteps(text);
  if (steps === undefined)
    throw new UsageError(
      `${path}: not a review's saved decisions`,
      `remove it to start the review of ${list} afresh, or move it aside`,
    );
  return steps;
}

function parseSteps(text: string): Step[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const saved = value as { version?: unknown; steps?: unknown };
  if (saved?.version !== VERSION || !Array.isArray(saved.steps)) return undefined;
  const steps = saved.steps as unknown[];
  return steps.every((step) => Array.isArray(step) && step.every(isDecision)) ? (steps as Step[]) : undefined;
}

function isDecision(value: unknown): value is Decision {
  const d = value as Partial<Record<string, unknown>>;
  if (typeof d?.row !== 'number' || !Number.isSafeInteger(d.row) || typeof d.typed !== 'string') return false;
  return d.kind === 'reject' || (d.kind === 'accept' && typeof d.address === 'string');
}

/**
 * Written after each step, private (0600) as the list's rows are; not flushed to the disk: a process that dies loses
 * nothing, and flushing at every key would make a loaded disk felt in the keys.
 */
export function saveSteps(list: string, steps: readonly Step[]): void {
  writeFileAtomic(sideFilePath(list), `${JSON.stringify({ version: VERSION, steps })}\n`, 0o600, { durable: false });
}

export function removeSideFile(list: string): void {
  rmSync(sideFilePath(list), { force: true });
}
