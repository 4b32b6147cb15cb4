// A number cell as its sheet shows it (numfmt applies Excel's rules); General keeps the number's own digits.
import { format as applyFormat } from 'numfmt';
import { DAYS_1900_TO_1904 } from './serial.js';
import type { NumberFormat } from './styles.js';

/** The built-in formats (ECMA-376 Part 1, 18.8.30) as Excel in English shows them; a workbook names only their ids. */
const BUILT_IN: Record<number, string> = {
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'm/d/yyyy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yyyy h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
};

/** The text `value` shows in `format`; undefined for General (and a format numfmt cannot read): the caller's own. */
export function shownText(value: number, format: NumberFormat, date1904: boolean, isDate: boolean): string | undefined {
  const code = format.code ?? BUILT_IN[format.id];
  if (code === undefined || /^general$/i.test(code)) return undefined;
  try {
    // numfmt counts in the 1900 system only.
    return applyFormat(code, isDate && date1904 ? value + DAYS_1900_TO_1904 : value, { throws: false }) || undefined;
  } catch {
    return undefined;
  }
}
