/** `2026-11-21T22:23:45.123000Z`: the platform shows microseconds; our clock has milliseconds. */
export function isoMicros(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '000Z');
}

/** `2026-11-21T22:23:45.123Z`, as the cleaning service writes its records. */
export function isoMillis(ms: number): string {
  return new Date(ms).toISOString();
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** `Nov 21, 2026 10:23 PM` (UTC): the display format of login and registration results. */
export function displayTime(ms: number): string {
  const d = new Date(ms);
  const hours24 = d.getUTCHours();
  const hours12 = hours24 % 12 === 0 ? 12 : hours24 % 12;
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())}, ${d.getUTCFullYear()} ${two(hours12)}:${two(d.getUTCMinutes())} ${hours24 < 12 ? 'AM' : 'PM'}`;
}
