// Where an account's state lives in the data directory (MAILCLEAN_DATA_DIR): the one place that names its files.
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const hash = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex');

export function limiterStatePath(dataDir: string, account: string): string {
  return join(dataDir, 'limiter', `${account}.json`);
}

/** One journal per input and account: the same list cleaned again finds its earlier answers. */
export function journalPath(dataDir: string, account: string, inputFingerprint: string): string {
  return join(dataDir, 'journals', `${hash(account, inputFingerprint).slice(0, 40)}.ndjson`);
}

export function cachePath(dataDir: string, account: string): string {
  return join(dataDir, 'cache', `${account}.sqlite`);
}

export function allowancePath(dataDir: string, account: string): string {
  return join(dataDir, 'allowance', `${account}.json`);
}

/** Lines of what was spent and when, `{"at": ISO time, "spent": n}`, appended as runs pay. */
export function spendPath(dataDir: string, account: string): string {
  return join(dataDir, 'spend', `${account}.ndjson`);
}

export function claimsPath(dataDir: string, account: string): string {
  return join(dataDir, 'claims', `${account}.sqlite`);
}

export function runsPath(dataDir: string, account: string): string {
  return join(dataDir, 'runs', `${account}.ndjson`);
}

/** The id is from the history's file, so it is encoded: no id names a file elsewhere. */
export function inFlightPath(dataDir: string, account: string, runId: string): string {
  return join(dataDir, 'runs', `${account}.${encodeURIComponent(runId)}.inflight`);
}
