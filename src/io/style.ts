// Just the few ANSI styles we use; a colour library would cost more startup than it saves.
import { isCi } from '../config/keyring.js';

export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
}

/**
 * Where a colour code goes: `forTerminal` escapes every control character of a line, then turns these marks into
 * codes, so only codes made here reach the terminal. Random per process: no text can forge one.
 */
export const STYLE_MARK = `\uE000${Math.random().toString(36).slice(2, 10)}\uE000`;
const wrap = (open: number, close: number) => (s: string) => `${STYLE_MARK}${open}m${s}${STYLE_MARK}${close}m`;

export const COLOR: Style = {
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  red: wrap(31, 39),
  green: wrap(32, 39),
  yellow: wrap(33, 39),
};

const same = (s: string) => s;
export const PLAIN: Style = { bold: same, dim: same, red: same, green: same, yellow: same };

/** NO_COLOR, TERM=dumb and CI switch colour off, FORCE_COLOR on; otherwise only a terminal gets it. */
export function wantsColor(
  stream: { isTTY?: boolean },
  env: Record<string, string | undefined>,
  flag?: boolean,
): boolean {
  if (flag === false) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb' || isCi(env)) return false;
  return stream.isTTY === true;
}
