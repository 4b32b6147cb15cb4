// This machine's run history: one JSON line per record, the last of an id winning. An append and the rewrite that
// forgets runs hold a lock file for a moment, so that neither loses the other's lines.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../../atomic-write.js';
import { holdBriefly } from '../../../lock-files.js';
import { runsHere } from '../process-lives.js';
import { type LoggedRun, newestFirst, parseRunRecord, type RunRecord } from '../run-log.js';

export async function appendRun(path: string, run: RunRecord): Promise<void> {
  await holdingLock(path, () => appendFileSync(path, `${JSON.stringify(run)}\n`, { mode: 0o600 }));
}

/** The runs of the index, newest start first; lines that cannot be read (a torn last line) are skipped. */
export function readRuns(path: string): LoggedRun[] {
  return [...latestRecords(path).values()]
    .map((run) => ({ ...run, live: run.end === null && runsHere(run) }))
    .sort(newestFirst);
}

export async function forgetRuns(path: string, ids: readonly string[]): Promise<number> {
  const forget = new Set(ids);
  return holdingLock(path, () => {
    const runs = latestRecords(path);
    const kept = [...runs.values()].filter((run) => !forget.has(run.id));
    if (kept.length === runs.size) return 0;
    writeFileAtomic(path, kept.map((run) => `${JSON.stringify(run)}\n`).join(''));
    return runs.size - kept.length;
  });
}

function latestRecords(path: string): Map<string, RunRecord> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return new Map();
  }
  const runs = new Map<string, RunRecord>();
  for (const line of text.split('\n')) {
    const run = parseRunRecord(line);
    if (run) runs.set(run.id, run);
  }
  return runs;
}

async function holdingLock<T>(path: string, work: () => T): Promise<T> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const release = holdBriefly(`${path}.lock`);
  try {
    return work();
  } finally {
    release();
  }
}
