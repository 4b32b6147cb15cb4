import { UsageError } from '../errors.js';

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** "30d", "12h", "90m", "2w"; "0" alone means none. */
export function parseDuration(text: string, source: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(s|m|h|d|w)?\s*$/.exec(text);
  const amount = match ? Number(match[1]) : NaN;
  if (!match || !Number.isFinite(amount) || (match[2] === undefined && amount !== 0)) {
    throw new UsageError(
      `${source}: "${text}" is not a duration`,
      'write it as a number and a unit, e.g. 30d, 12h, 90m, 2w (or 0)',
    );
  }
  return amount * (match[2] ? UNITS[match[2]]! : 0);
}
