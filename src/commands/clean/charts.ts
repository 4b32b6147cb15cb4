// The end-of-run breakdown on a terminal: statuses and the top reasons as bars, one screen.
import type { RunSummary } from '../../clean/run/summary.js';
import { forTerminal } from '../../io/streams.js';
import type { Style } from '../../io/style.js';
import { formatCount } from '../../quantities.js';

const WIDTH = 30;
const TOP_REASONS = 6;
const COLOURS: Record<string, 'green' | 'red' | 'yellow'> = {
  valid: 'green',
  invalid: 'red',
  risky: 'yellow',
  unknown: 'yellow',
};

function bar(rows: number, total: number): string {
  const filled = total > 0 ? Math.round((WIDTH * rows) / total) : 0;
  return `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}`;
}

function lines(
  counts: Array<[string, number]>,
  total: number,
  colour: (name: string, text: string) => string,
): string[] {
  const label = Math.max(...counts.map(([name]) => name.length), 6);
  const digits = Math.max(...counts.map(([, n]) => formatCount(n).length));
  return counts.map(([name, n]) => {
    const share = total > 0 ? ((100 * n) / total).toFixed(1) : '0.0';
    return `  ${name.padEnd(label)}  ${colour(name, bar(n, total))}  ${formatCount(n).padStart(digits)}  ${share.padStart(5)}%`;
  });
}

/** For a terminal (escaped, with its colours: see `forTerminal`): the reasons may be the service's own words. */
export function barChart(summary: RunSummary, style: Style): string {
  const colourOf = (status: string, text: string) =>
    Object.hasOwn(COLOURS, status) ? style[COLOURS[status]!](text) : text;
  const out = ['Statuses', ...lines(Object.entries(summary.statuses), summary.rows, colourOf)];
  const reasons = Object.entries(summary.reasons).slice(0, TOP_REASONS);
  if (reasons.length > 0) out.push('Top reasons', ...lines(reasons, summary.rows, (_, text) => style.dim(text)));
  return forTerminal(`${out.join('\n')}\n`);
}
