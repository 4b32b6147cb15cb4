// The GitHub Actions job summary ($GITHUB_STEP_SUMMARY): a short Markdown account of the run.
import type { RunSummary } from '../../clean/summary.js';

const md = (text: string) => text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
const n = (x: number) => x.toLocaleString('en-US');

export function stepSummary(s: RunSummary): string {
  const rows = Object.entries(s.statuses).map(([status, count]) => `| ${md(status)} | ${n(count)} | ${s.rows ? ((100 * count) / s.rows).toFixed(1) : '0.0'}% |`);
  const checker = s.checker === 'local' ? 'the built-in engine (nothing spent)' : `the cleaning service: spent ${n(s.spent)} addresses in ${n(s.requests)} requests`;
  const lines = [
    `### mailclean: ${md(s.input)}`,
    '',
    `${n(s.rows)} rows, ${n(s.unique)} unique addresses, checked by ${checker}.`,
    '',
    '| Status | Rows | Share |',
    '| --- | ---: | ---: |',
    ...rows,
    '',
  ];
  if (s.unchecked.rows > 0) lines.push(`**${n(s.unchecked.rows)} rows unchecked**${s.unchecked.message ? `: ${md(s.unchecked.message)}` : ''}.`, '');
  lines.push(`Outputs: ${s.outputs.map((o) => `${o.path === '-' ? 'stdout' : `\`${o.path.replace(/`/g, "'")}\``} (${n(o.rows)} rows${o.role === 'rejects' ? ', rejects' : ''})`).join(', ')}.`, '');
  return `${lines.join('\n')}\n`;
}
