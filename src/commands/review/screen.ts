// The review's screen as lines that fit the terminal (80x24 at least): the row, its context, the typed address and
// the fix, what was decided, and the keys. Text from the list is escaped before it is measured and cut.
import { escapeControls } from '../../io/streams.js';
import type { Style } from '../../io/style.js';
import { domainOf } from '../../review/decisions.js';
import type { ReviewItem } from '../../review/list.js';

export interface View {
  file: string;
  item: ReviewItem | undefined;
  position: number;
  total: number;
  counts: { accepted: number; rejected: number; left: number };
  message?: string;
  /** The address being typed, while editing. */
  editing?: string;
}

const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
const ZERO_WIDTH = /[\p{Mn}\p{Me}\u200b-\u200f]/u;

/** The columns a terminal gives `text` (escaped already): East Asian wide characters two, combining marks none. */
export function widthOf(text: string): number {
  let width = 0;
  for (const c of text) width += ZERO_WIDTH.test(c) ? 0 : WIDE.test(c) ? 2 : 1;
  return width;
}

/** `text` escaped and cut to `width` columns, an ellipsis marking the cut. */
export function clip(text: string, width: number): string {
  const shown = escapeControls(text);
  if (widthOf(shown) <= width) return shown;
  let out = '';
  let used = 0;
  for (const c of shown) {
    const w = widthOf(c);
    if (used + w > width - 1) break;
    out += c;
    used += w;
  }
  return `${out}…`;
}

/** The keys in as many lines as the width needs. */
function keyLines(keys: string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const key of keys) {
    const next = line ? `${line}  ${key}` : key;
    if (widthOf(next) <= width || !line) line = next;
    else {
      lines.push(line);
      line = key;
    }
  }
  return [...lines, line].map((l) => clip(l, width));
}

export function render(view: View, width: number, height: number, style: Style): string[] {
  const { item, counts } = view;
  const where = `${Math.min(view.position, view.total)} of ${view.total}`;
  const title = clip(`mailclean review  ${view.file}`, width - where.length - 2);
  const lines = [`${style.bold(title)}${' '.repeat(Math.max(2, width - widthOf(title) - where.length))}${where}`, ''];
  if (item === undefined) lines.push(clip(`Every row is decided: ${summary(counts)}.`, width));
  else lines.push(...rowLines(item, width, style));
  lines.push('', clip(`${summary(counts)}, ${counts.left} left`, width));
  lines.push(view.message ? style.yellow(clip(view.message, width)) : '', '');
  if (view.editing !== undefined) {
    lines.push(...keyLines(['Enter use this address', 'Esc cancel', 'Ctrl-U clear'], width).map(style.dim));
    lines.push(`edit: ${clip(view.editing, width - 7)}`);
  } else lines.push(...keyLines(keysOf(item, width), width));
  // On a terminal smaller than the screen, the keys stay in sight: the context gives way.
  while (lines.length > height && lines.length > 4) lines.splice(3, 1);
  return lines;
}

function rowLines(item: ReviewItem, width: number, style: Style): string[] {
  const labels = item.context.map(([name]) => name);
  const labelWidth = Math.min(16, Math.max(7, ...labels.map((l) => widthOf(escapeControls(l)))));
  const pair = (label: string, value: string, paint = (s: string) => s) => {
    const shownLabel = clip(label, labelWidth);
    const gap = ' '.repeat(labelWidth - widthOf(shownLabel) + 2);
    return `  ${style.dim(shownLabel)}${gap}${paint(clip(value, width - labelWidth - 4))}`;
  };
  return [
    clip(`row ${item.row + 1} (line ${item.line})`, width),
    ...item.context.map(([label, value]) => pair(label, value)),
    '',
    pair('typed:', item.typed),
    pair('fix:', item.fix, style.green),
    ...(item.status ? [pair('status:', item.status)] : []),
  ];
}

function keysOf(item: ReviewItem | undefined, width: number): string[] {
  if (item === undefined) return ['u undo', 'q save & quit'];
  const domain = clip(`@${domainOf(item.typed)}`, Math.max(8, width - 16));
  return ['a accept', 'r reject', 'e edit', `A accept all ${domain}`, 'u undo', 'q save & quit'];
}

function summary(counts: View['counts']): string {
  return `${counts.accepted} accepted, ${counts.rejected} rejected`;
}
