// `--report FILE.html`: one self-contained page of charts; every value from the list is escaped, as it is untrusted.

import { formatCount } from '../../quantities.js';
import type { RunSummary } from '../run/summary.js';

const COLOURS: Record<string, string> = {
  valid: '#2e7d32',
  risky: '#ef6c00',
  invalid: '#c62828',
  unknown: '#6d6d6d',
  unchecked: '#9e9e9e',
};
const colour = (status: string) => COLOURS[status] ?? '#5c6bc0';
const n = formatCount;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function barChart(id: string, counts: Array<[string, number]>, total: number, fill: (name: string) => string): string {
  const rowHeight = 22;
  const bars = counts.map(([name, rows], i) => {
    const width = total > 0 ? Math.max(rows > 0 ? 1 : 0, Math.round((480 * rows) / total)) : 0;
    const y = i * rowHeight;
    return (
      `<g class="bar" data-name="${escapeHtml(name)}" data-rows="${rows}">` +
      `<text x="0" y="${y + 15}">${escapeHtml(name)}</text>` +
      `<rect x="150" y="${y + 3}" width="${width}" height="16" fill="${fill(name)}"></rect>` +
      `<text x="${156 + width}" y="${y + 15}">${n(rows)} (${total ? ((100 * rows) / total).toFixed(1) : '0.0'}%)</text></g>`
    );
  });
  return `<svg id="${id}" role="img" width="760" height="${Math.max(1, counts.length) * rowHeight}" xmlns="http://www.w3.org/2000/svg">${bars.join('')}</svg>`;
}

function domainRows(s: RunSummary): string {
  return s.topDomains
    .map((d) => {
      let x = 0;
      const parts = Object.entries(d.statuses).map(([status, rows]) => {
        const width = d.rows > 0 ? (300 * rows) / d.rows : 0;
        const part = `<rect x="${x.toFixed(1)}" y="0" width="${width.toFixed(1)}" height="14" fill="${colour(status)}"><title>${escapeHtml(status)}: ${n(rows)}</title></rect>`;
        x += width;
        return part;
      });
      const mix = Object.entries(d.statuses)
        .map(([status, rows]) => `${escapeHtml(status)} ${n(rows)}`)
        .join(', ');
      return `<tr class="domain" data-domain="${escapeHtml(d.domain)}" data-rows="${d.rows}"><td>${escapeHtml(d.domain)}</td><td class="num">${n(d.rows)}</td><td><svg width="300" height="14" xmlns="http://www.w3.org/2000/svg">${parts.join('')}</svg></td><td>${mix}</td></tr>`;
    })
    .join('\n');
}

/** `typo → domain` pairs and their rows, as a table whose rows are of class `kind`; '' for none. */
function pairTable(kind: string, heading: string, counts: Record<string, number>): string {
  const rows = Object.entries(counts).map(
    ([pair, count]) => `<tr class="${kind}"><td>${escapeHtml(pair)}</td><td class="num">${n(count)}</td></tr>`,
  );
  return rows.length ? `<table><tr><th>${heading}</th><th>Rows</th></tr>${rows.join('\n')}</table>` : '';
}

function fixesSection(s: RunSummary): string {
  if (!s.fixes) return '';
  return `<h2>Typos fixed</h2>
<p id="fixes" data-rows="${s.fixes.rows}">${n(s.fixes.rows)} rows checked as their fix (--fix-typos).</p>
${pairTable('fix', 'Typo → fix', s.fixes.domains)}
`;
}

function providersSection(s: RunSummary): string {
  const providers = Object.entries(s.providers);
  return providers.length
    ? barChart('providers', providers, s.rows, () => '#00838f')
    : '<p>No provider known: the domains were not looked up (or DNS did not answer).</p>';
}

function uncheckedSection(s: RunSummary): string {
  if (s.unchecked.rows === 0) return '<p id="unchecked" data-rows="0">Every row was decided.</p>';
  return `<p id="unchecked" data-rows="${s.unchecked.rows}"><strong>${n(s.unchecked.rows)} rows unchecked</strong>: ${escapeHtml(s.unchecked.message ?? s.unchecked.reason ?? 'not checked')}. Run the same command with --resume to check them without paying twice.</p>`;
}

function exampleRows(examples: ReadonlyMap<string, string[]>): string {
  const rows = [...examples].flatMap(([status, cells]) =>
    cells.map(
      (cell) =>
        `<tr class="example" data-status="${escapeHtml(status)}"><td>${escapeHtml(status)}</td><td><code>${escapeHtml(cell)}</code></td></tr>`,
    ),
  );
  return rows.length
    ? `<table><tr><th>Status</th><th>Address as written</th></tr>${rows.join('\n')}</table>`
    : '<p>Every address is valid.</p>';
}

/** The page; `examples` are a few addresses per status (from the input: escaped like everything else). */
export function htmlReport(s: RunSummary, examples: ReadonlyMap<string, string[]> = new Map()): string {
  const statuses = Object.entries(s.statuses);
  const reasons = Object.entries(s.reasons);
  const by =
    s.checker === 'local'
      ? 'the built-in engine (nothing spent)'
      : `the cleaning service at ${escapeHtml(s.service ?? '?')}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>mailclean report: ${escapeHtml(s.input)}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 2em; }
table { border-collapse: collapse; } td, th { padding: 2px 10px 2px 0; text-align: left; } .num { text-align: right; }
svg text { font: 12px system-ui, sans-serif; fill: #222; }
.facts span { display: inline-block; margin-right: 2em; }
</style></head>
<body>
<h1>mailclean report: ${escapeHtml(s.input)}</h1>
<p class="facts"><span>${n(s.rows)} rows</span><span>${n(s.unique)} unique addresses</span><span>${n(s.duplicates)} duplicates</span>
<span>checked by ${by}</span><span>spent ${n(s.spent)}</span><span>${escapeHtml(s.finishedAt)}</span></p>
<h2>Statuses</h2>
${barChart('statuses', statuses, s.rows, colour)}
<h2>Reasons</h2>
${reasons.length ? barChart('reasons', reasons, s.rows, () => '#5c6bc0') : '<p>No reasons: every row is valid or unchecked.</p>'}
<h2>Disposable and role addresses</h2>
<p><span id="disposable" data-rows="${s.disposable}">${n(s.disposable)} disposable</span>, <span id="role" data-rows="${s.role}">${n(s.role)} role accounts (info@, admin@ …)</span>.</p>
<h2>Mail providers</h2>
${providersSection(s)}
<h2>Top ${s.topDomains.length} domains</h2>
<table><tr><th>Domain</th><th>Rows</th><th>Verdicts</th><th></th></tr>
${domainRows(s)}
</table>
<h2>Examples</h2>
${exampleRows(examples)}
<h2>Typo suggestions</h2>
${pairTable('suggestion', 'Typo → suggestion', s.suggestions) || '<p>No typo suggestions.</p>'}
${fixesSection(s)}<h2>Unchecked</h2>
${uncheckedSection(s)}
</body></html>
`;
}
