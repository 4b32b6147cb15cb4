// When mailclean colours what it writes for a person: a terminal's, unless told otherwise (help formatting).
import { describe, expect, it } from 'vitest';
import { wantsColor } from '../../src/io/style.js';

describe('colour', () => {
  const terminal = { isTTY: true };
  it('on a terminal, unless --no-color, NO_COLOR, TERM=dumb or CI; FORCE_COLOR wins but over --no-color', () => {
    expect(wantsColor(terminal, {})).toBe(true);
    expect(wantsColor(terminal, {}, false)).toBe(false);
    expect(wantsColor(terminal, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColor(terminal, { TERM: 'dumb' })).toBe(false);
    expect(wantsColor(terminal, { CI: 'true' })).toBe(false);
    expect(wantsColor(terminal, { CI: 'false' })).toBe(true);
    expect(wantsColor(terminal, { CI: '1', NO_COLOR: '1', FORCE_COLOR: '1' })).toBe(true);
    expect(wantsColor(terminal, { FORCE_COLOR: '1' }, false)).toBe(false);
  });

  it('never in a pipe or a file, unless FORCE_COLOR (not 0)', () => {
    expect(wantsColor({ isTTY: false }, {})).toBe(false);
    expect(wantsColor({}, { FORCE_COLOR: '1' })).toBe(true);
    expect(wantsColor({}, { FORCE_COLOR: '0' })).toBe(false);
  });
});
