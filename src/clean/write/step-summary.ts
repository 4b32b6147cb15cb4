import { formatCount, quantity } from '../../quantities.js';
import type { RunSummary } from '../run/summary.js';

const md = (text: string) => text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
const n = formatCount;

/** The run in a few lines of Markdown; `files` are the side files written besides the rows (summary, report). */
export function stepSummary(s: RunSummary, files: readonly string[] = []): string {
  const rows = Object.entries(s.statuses).map(
    ([status, count]) => `| ${md(status)} | ${n(count)} | ${s.rows ? ((100 * count) / s.rows).toFixed(1) : '0.0'}% |`,
  );
  const checker =
    s.checker === 'local'
      ? 'the built-in engine (nothing spent)'
      : `the cleaning service: spent ${quantity(s.spent, 'address', 'addresses')} in ${quantity(s.requests, 'request', 'requests')}`;
  const lines = [
    `### mailclean: ${md(s.input)}`,
    '',
    ...verdictLine(s),
    '',
    `${quantity(s.rows, 'row', 'rows')}, ${quantity(s.unique, 'unique address', 'unique addresses')}, checked by ${checker}.`,
    '',
  ];
  if (rows.length > 0) lines.push('| Status | Rows | Share |', '| --- | ---: | ---: |', ...rows, '');
  if (s.fixes) lines.push(`Typos fixed: ${quantity(s.fixes.rows, 'row', 'rows')}, checked as their fix.`, '');
  if (s.unchecked.rows > 0)
    lines.push(
      `**${quantity(s.unchecked.rows, 'row', 'rows')} unchecked**${s.unchecked.message ? `: ${md(s.unchecked.message)}` : ''}.`,
      '',
    );
  const outputs = s.outputs.map(
    (o) =>
      `${o.path === '-' ? 'stdout' : code(o.path)} (${quantity(o.rows, 'row', 'rows')}${o.role === 'rejects' ? ', rejects' : ''})`,
  );
  const all = [...outputs, ...files.map(code)];
  lines.push(all.length > 0 ? `Outputs: ${all.join(', ')}.` : 'No output was written.', '');
  return `${lines.join('\n')}\n`;
}

function verdictLine(s: RunSummary): string[] {
  if (s.failedWhen.length > 0)
    return [`**Failed by --fail-when** (exit ${s.exitCode}): ${s.failedWhen.map(code).join('; ')}.`];
  if (s.stopped && s.exitCode !== 0)
    return [`**Stopped** (exit ${s.exitCode}, ${md(s.stopped.reason)}): ${md(s.stopped.message)}.`];
  return [s.exitCode === 0 ? 'Every row decided.' : `Exit ${s.exitCode}.`];
}

const code = (path: string) => `\`${path.replace(/`/g, "'")}\``;
