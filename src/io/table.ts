import Table from 'cli-table3';
import { codesAsMarks, escapeControls, marksAsCodes } from './streams.js';

/** cli-table3 draws a part given as an empty string as nothing. */
const NO_BORDER = Object.fromEntries(
  'top top-mid top-left top-right bottom bottom-mid bottom-left bottom-right left left-mid mid mid-mid right right-mid'
    .split(' ')
    .map((part) => [part, '']),
);

/** On a terminal, aligned columns without borders; in a pipe, tab-separated rows for `cut` and `awk`. */
export function renderTable(headers: string[], rows: string[][], tty: boolean): string {
  if (!tty) return `${[headers, ...rows].map((r) => r.join('\t')).join('\n')}\n`;
  const table = new Table({
    head: headers,
    chars: { ...NO_BORDER, middle: '  ' },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  // Measured with colours as codes (which take no room), the cells' own controls escaped first; then marks again.
  table.push(...rows.map((row) => row.map((cell) => marksAsCodes(escapeControls(cell)))));
  return `${codesAsMarks(table.toString())}\n`;
}

/** `Label  value` lines, labels aligned. */
export function renderPairs(pairs: Array<[string, string]>): string {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return `${pairs.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n')}\n`;
}
