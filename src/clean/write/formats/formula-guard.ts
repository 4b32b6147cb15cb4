// Formula injection (OWASP's "CSV injection"): a spreadsheet runs a cell starting with = + - @ as a formula, so such
// a cell gets a single quote before it.

/** OWASP's list, and their full-width forms, which East Asian Excel also reads as formulas. */
const TRIGGERS = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A plain number (-12, +3.5, -1e5) is no formula: a spreadsheet reads it as the number it is. */
const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

export function looksLikeFormula(value: string): boolean {
  return TRIGGERS.test(value) && !PLAIN_NUMBER.test(value);
}

export function neutralise(value: string): string {
  return looksLikeFormula(value) ? `'${value}` : value;
}
