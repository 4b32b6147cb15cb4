// What a cleaning service says of the monthly allowance. The spec shows none, so it is read leniently wherever a
// service may put it (docs/assumptions.md).
import { isObject } from './shape.js';

export interface AllowanceNews {
  left?: number;
  limit?: number;
  /** When the allowance renews (ISO 8601), if the service said. */
  renewsAt?: string;
}

/** Each camelCase key of the list, followed by its snake_case twin. */
const withSnakeCase = (keys: string): string[] =>
  keys.split(' ').flatMap((key) => {
    const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    return snake === key ? [key] : [key, snake];
  });

const LEFT_KEYS = withSnakeCase('left remaining remainingCredits creditsLeft allowanceLeft quotaRemaining');
const LIMIT_KEYS = withSnakeCase('limit allowance monthlyLimit quota monthlyAllowance');
const RENEW_KEYS = withSnakeCase('renewsAt resetsAt resetAt resetDate periodEnd');
const LEFT_HEADERS = ['x-allowance-remaining', 'x-quota-remaining', 'x-credits-remaining', 'x-monthly-remaining'];

const number = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value.replace(/,/g, '')) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
};

const date = (value: unknown): string | undefined => {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const t = typeof value === 'number' ? (value > 1e12 ? value : value * 1000) : Date.parse(value);
  return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
};

/** "10 left", "10 emails remaining", "remaining: 10"; and "renews on 2026-12-01". */
function fromMessage(message: string): AllowanceNews {
  const news: AllowanceNews = {};
  const left =
    /(\d[\d,]*)\s+(?:more\s+)?(?:e-?mails?\s+|addresses\s+|credits?\s+|checks?\s+)?(?:left|remaining)\b/i.exec(
      message,
    ) ?? /\b(?:left|remaining|available)\s*[:=]\s*(\d[\d,]*)/i.exec(message);
  if (left) news.left = number(left[1]);
  const renews =
    /\b(?:renews?|resets?|refreshes|renewal)\b[^\d]{0,12}(\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?)/i.exec(
      message,
    );
  if (renews) news.renewsAt = date(renews[1]);
  return news;
}

/** The first of `keys` found in `body` or in objects nested up to three levels down. */
function findField(body: unknown, keys: readonly string[], read: (v: unknown) => unknown, depth = 0): unknown {
  if (!isObject(body) || depth > 3) return undefined;
  for (const key of keys) {
    const value = read(body[key]);
    if (value !== undefined) return value;
  }
  for (const value of Object.values(body)) {
    const found = findField(value, keys, read, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Everything a message, a JSON body and headers say of the allowance; fields nobody stated stay unset. */
export function allowanceNews(message?: string, body?: unknown, headers: Record<string, string> = {}): AllowanceNews {
  const news: AllowanceNews = message ? fromMessage(message) : {};
  news.left ??= findField(body, LEFT_KEYS, number) as number | undefined;
  news.limit ??= findField(body, LIMIT_KEYS, number) as number | undefined;
  news.renewsAt ??= findField(body, RENEW_KEYS, date) as string | undefined;
  for (const header of LEFT_HEADERS) news.left ??= number(headers[header]);
  for (const key of Object.keys(news) as Array<keyof AllowanceNews>) if (news[key] === undefined) delete news[key];
  return news;
}
