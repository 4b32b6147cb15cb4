// The pieces of SpreadsheetML a workbook is written with: escaped text, column letters, a cell of each kind.

export const MAX_CELL_TEXT = 32_767;

/** Characters XML 1.0 cannot hold (and CR, which XML readers turn into LF), or text that reads as an escape. */
const NEEDS_ESCAPE = /[&<>\u0000-\u0008\u000B-\u001F\uFFFE\uFFFF]|[\uD800-\uDFFF]|_x[0-9A-Fa-f]{4}_/u;

export function xmlText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text
    .replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1')
    .replace(
      /[\u0000-\u0008\u000B-\u001F\uFFFE\uFFFF]/g,
      (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`,
    )
    .replace(/[\uD800-\uDFFF]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

export function xmlAttribute(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;');
}

const letters: string[] = [];

/** 0 -> A, 26 -> AA, 16383 -> XFD. */
export function columnName(index: number): string {
  let name = letters[index];
  if (name === undefined) {
    name = '';
    for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
    letters[index] = name;
  }
  return name;
}

const styled = (style: number) => (style === 0 ? '' : ` s="${style}"`);

export const EMPTY_CELL = '<c/>';

export function textCell(text: string, style = 0): string {
  const last = text.charCodeAt(text.length - 1);
  // Leading or trailing spaces and line breaks are kept only when the text says so.
  const space = text.charCodeAt(0) <= 32 || last <= 32 || text.includes('\n') ? ' xml:space="preserve"' : '';
  return `<c${styled(style)} t="inlineStr"><is><t${space}>${xmlText(text)}</t></is></c>`;
}

export function numberCell(value: string | number, style = 0): string {
  return `<c${styled(style)}><v>${value}</v></c>`;
}

export function booleanCell(value: boolean): string {
  return value ? '<c t="b"><v>1</v></c>' : '<c t="b"><v>0</v></c>';
}

export function errorCell(text: string): string {
  return `<c t="e"><v>${xmlText(text)}</v></c>`;
}
