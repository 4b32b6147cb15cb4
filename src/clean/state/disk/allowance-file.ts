// What is known of an account's monthly allowance between runs: the last news, when it was learned and from what.
import { readFileSync, rmSync } from 'node:fs';
import { isObject } from '../../../api/shape.js';
import { writeFileAtomic } from '../../../atomic-write.js';
import type { AllowanceNews, KnownAllowance } from '../account-state.js';
import { stillHolds } from '../month.js';

/** The last news of this account's allowance, if any was kept. */
export function knownAllowance(path: string, now: number): KnownAllowance | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (!isObject(parsed) || typeof parsed.asOf !== 'string' || typeof parsed.left !== 'number') return undefined;
    const known = parsed as unknown as KnownAllowance;
    // Once the month renewed, what was left before says nothing.
    return stillHolds(known, now) ? known : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps news that says how much is left; news that does not (a sign-in naming no count) forgets what was known. */
export function rememberAllowance(
  path: string,
  news: AllowanceNews,
  source: KnownAllowance['source'],
  now: number,
): void {
  if (news.left === undefined) {
    rmSync(path, { force: true });
    return;
  }
  const known: KnownAllowance = { ...news, asOf: new Date(now).toISOString(), source };
  writeFileAtomic(path, `${JSON.stringify(known)}\n`);
}
