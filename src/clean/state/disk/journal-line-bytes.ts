// A journal line read from its bytes, its addresses found by their UTF-8, with no string or array made per row. A line
// it does not expect (an older form, an escape, damage) is left to JSON.parse.
import type { Verdict } from '../../verdict/verdict.js';
import type { NumberedAnswer, NumberedKeys } from '../account-state.js';
import { sharedVerdicts } from './journal-lines.js';

const ROWS_START = Buffer.from('],"a":[');
const [QUOTE, COMMA, OPEN, CLOSE, MINUS, BACKSLASH] = [34, 44, 91, 93, 45, 92];
/** Fields after a row's key: its flags and up to six word indexes (journal-lines.ts, WORDS). */
const MAX_FIELDS = 7;
/** sharedVerdicts wants a row's key: the bytes are matched here, not its text. */
const KEY_STAND_IN = '@';

/** False, having told nothing, for a line this reader does not know. */
export function readLineBytes(
  text: Buffer,
  start: number,
  end: number,
  keys: NumberedKeys,
  found: NumberedAnswer,
): boolean {
  if (!text.toString('latin1', start, start + 6).startsWith('{"w":[')) return false;
  const rowsAt = text.indexOf(ROWS_START, start);
  if (rowsAt < 0 || rowsAt >= end || text[end - 1] !== 125 || text[end - 2] !== CLOSE) return false;
  const words = parseWords(text.toString('utf8', start + 5, rowsAt + 1));
  const rows = words && parseRows(text, rowsAt + ROWS_START.length, end - 2, keys.foldsCase);
  if (!rows) return false;
  const verdicts = sharedVerdicts(rows.fields, words);
  // Not a line of answers after all: JSON.parse finds it damaged.
  if (!verdicts) return false;
  const ordinals = keys.ordinalsInOrder(rows.keys, rows.starts);
  // One function for every answer's text, told which by `told` (`found` asks at once or never).
  let told = 0;
  const key = () => rows.keys.toString('utf8', rows.starts[told], rows.starts[told + 1]);
  for (; told < ordinals.length; told++) {
    const ordinal = ordinals[told] as number;
    if (ordinal >= 0) found(ordinal, verdicts[told] as Verdict, key);
  }
  return true;
}

function parseWords(json: string): string[] | undefined {
  try {
    const words: unknown = JSON.parse(json);
    return Array.isArray(words) && words.every((w) => typeof w === 'string') ? words : undefined;
  } catch {
    return undefined;
  }
}

/** A line's addresses are copied here, one line at a time: a buffer per line raised a re-run's peak. */
let keyBytes = Buffer.allocUnsafeSlow(1 << 16);

interface Rows {
  /** Row i's address is from starts[i] to starts[i + 1]. */
  keys: Buffer;
  starts: Int32Array;
  /** Each row as sharedVerdicts takes it: a stand-in for its key, then its numbers. */
  fields: unknown[][];
}

/** The rows `["key",n,...]` up to `end`; `fold` reads A-Z in lower case (a journal from before keys were folded). */
function parseRows(text: Buffer, at: number, end: number, fold: boolean): Rows | undefined {
  if (keyBytes.length < end - at) keyBytes = Buffer.allocUnsafeSlow(2 * (end - at));
  const keys = keyBytes;
  const starts: number[] = [0];
  const fields: unknown[][] = [];
  let to = 0;
  while (at < end) {
    if (text[at++] !== OPEN || text[at++] !== QUOTE) return undefined;
    const keyStart = at;
    for (let c = text[at]; c !== QUOTE; c = text[++at]) if (c === BACKSLASH || at >= end) return undefined;
    if (at === keyStart) return undefined;
    const from = to;
    to += text.copy(keys, to, keyStart, at);
    if (fold) for (let i = from; i < to; i++) if (keys[i]! >= 65 && keys[i]! <= 90) keys[i]! |= 32;
    starts.push(to);
    at++;
    const row: unknown[] = [KEY_STAND_IN];
    while (text[at] === COMMA) {
      let value = 0;
      const negative = text[++at] === MINUS;
      if (negative) at++;
      const digitsAt = at;
      for (let c = text[at] as number; c >= 48 && c <= 57; c = text[++at] as number) value = value * 10 + c - 48;
      if (at === digitsAt || row.length > MAX_FIELDS) return undefined;
      row.push(negative ? -value : value);
    }
    if (text[at++] !== CLOSE) return undefined;
    fields.push(row);
    // A comma, then another row; or the end.
    if (at < end && (text[at++] !== COMMA || at === end)) return undefined;
  }
  return { keys: keys.subarray(0, to), starts: Int32Array.from(starts), fields };
}
