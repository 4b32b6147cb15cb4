// What this machine spent of an account's allowance: appended lines (a run books a line a minute at most, see
// spend-booking.ts), so concurrent runs never overwrite each other (an append this small is one write).
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function recordSpend(path: string, addresses: number, now: number): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  appendFileSync(path, `${JSON.stringify({ at: new Date(now).toISOString(), spent: addresses })}\n`, { mode: 0o600 });
}

/** The addresses spent in `month` (`2026-11`); lines that cannot be read count nothing. */
export function spentInMonth(path: string, month: string): number {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return 0;
  }
  let spent = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`{"at":"${month}`)) continue;
    try {
      const n = (JSON.parse(line) as { spent?: unknown }).spent;
      if (typeof n === 'number' && Number.isFinite(n)) spent += n;
    } catch {
      // A torn last line (a killed run) is skipped.
    }
  }
  return spent;
}
