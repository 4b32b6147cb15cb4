import { UsageError } from '../errors.js';

export interface Rate {
  requests: number;
  windowMs: number;
}

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** The spec's limit (section 8): 50 requests per 5 minutes. */
export const DEFAULT_RATE = '50/5m';

/** "50/5m", "5/2s", "100/1h", "10/500ms"; a bare unit means one of it ("50/m"). */
export function parseRate(text: string, source: string): Rate {
  const match = /^\s*(\d+)\s*\/\s*(\d*(?:\.\d+)?)\s*(ms|s|m|h)\s*$/.exec(text);
  const requests = match ? Number(match[1]) : NaN;
  const amount = match ? (match[2] === '' ? 1 : Number(match[2])) : NaN;
  if (!match || !(requests > 0) || !(amount > 0)) {
    throw new UsageError(`${source}: "${text}" is not a rate`, 'write it as N/WINDOW, e.g. 50/5m, 5/2s or 1000/1h');
  }
  return { requests, windowMs: amount * UNITS[match[3]!]! };
}

/** A rate given as an object (the library's option, the sandbox's), `source` naming it in the message. */
export function checkRate(rate: Rate, source: string): Rate {
  if (!(Number.isSafeInteger(rate.requests) && rate.requests > 0))
    throw new UsageError(`${source}.requests must be a positive integer`);
  if (!(Number.isFinite(rate.windowMs) && rate.windowMs > 0))
    throw new UsageError(`${source}.windowMs must be a positive number`);
  return { requests: rate.requests, windowMs: rate.windowMs };
}

export function formatRate(rate: Rate): string {
  const { windowMs } = rate;
  const unit = windowMs % 3_600_000 === 0 ? 'h' : windowMs % 60_000 === 0 ? 'm' : windowMs % 1000 === 0 ? 's' : 'ms';
  return `${rate.requests}/${windowMs / UNITS[unit]!}${unit}`;
}
