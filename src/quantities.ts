// Numbers and names as people read them in messages: "1 request", "2,500 rows", "5m 1s", reasons in a steady order.

/** 12,345, as en-US writes it: `toLocaleString` would load ICU's number formatting at every command's start. */
export function formatCount(n: number): string {
  if (!Number.isInteger(n)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** "1 request", "2 requests", with thousands separators. */
export function quantity(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : pluralForm}`;
}

export function formatDuration(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${seconds % 60 ? ` ${seconds % 60}s` : ''}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h ${minutes % 60}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

/** Orders names by character codes, the same everywhere, without loading ICU's collation as `localeCompare` does. */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
