// What is known of an account's monthly allowance between runs: the last news, when it was learned and from what.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AllowanceNews } from '../api/allowance.js';
import { isObject } from '../api/shape.js';

export type { AllowanceNews } from '../api/allowance.js';

/** News as remembered between runs: when it was learned, and from what. */
export interface KnownAllowance extends AllowanceNews {
  asOf: string;
  source: 'signin' | 'refusal' | 'run';
}

function pathFor(dataDir: string, account: string): string {
  return join(dataDir, 'allowance', `${account}.json`);
}

/** The last news of this account's allowance, if any was kept. */
export function knownAllowance(dataDir: string, account: string): KnownAllowance | undefined {
  try {
    const parsed = JSON.parse(readFileSync(pathFor(dataDir, account), 'utf8')) as unknown;
    if (!isObject(parsed) || typeof parsed.asOf !== 'string' || typeof parsed.left !== 'number') return undefined;
    return parsed as unknown as KnownAllowance;
  } catch {
    return undefined;
  }
}

/** Keeps news that says how much is left; other news is not worth showing later. */
export function rememberAllowance(dataDir: string, account: string, news: AllowanceNews, source: KnownAllowance['source'], now = Date.now()): void {
  if (news.left === undefined) return;
  const path = pathFor(dataDir, account);
  const known: KnownAllowance = { ...news, asOf: new Date(now).toISOString(), source };
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(known)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}
