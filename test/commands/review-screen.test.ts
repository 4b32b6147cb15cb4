// The review's screen: every line within the terminal's width however long or wide the cells are, the keys always in
// sight, and a cell's control characters shown escaped, never acted on.
import { describe, expect, it } from 'vitest';
import { clip, render, type View, widthOf } from '../../src/commands/review/screen.js';
import { PLAIN } from '../../src/io/style.js';
import type { ReviewItem } from '../../src/review/list.js';

const long = 'x'.repeat(200);
const item: ReviewItem = {
  row: 41,
  line: 43,
  typed: `ann@${'a'.repeat(70)}.gmial.com`,
  fix: `ann@${'a'.repeat(70)}.gmail.com`,
  context: [
    ['name', '山田太郎'.repeat(30)],
    ['a column with a long name indeed', long],
    ['note', 'evil \u001b]0;title\u0007 here'],
    ...Array.from({ length: 5 }, (_, i): [string, string] => [`c${i}`, long]),
  ],
  status: 'risky (possible_typo)',
};
const view: View = {
  file: `${long}.csv`,
  item,
  position: 3,
  total: 41,
  counts: { accepted: 1, rejected: 1, left: 39 },
  message: long,
};

describe('the review screen', () => {
  it.each([
    [80, 24],
    [100, 40],
    [60, 12],
  ])('fits %ix%i, the keys last', (width, height) => {
    for (const shown of [view, { ...view, editing: long }, { ...view, item: undefined }]) {
      const lines = render(shown, width, height, PLAIN);
      expect(lines.length).toBeLessThanOrEqual(height);
      for (const line of lines) expect(widthOf(line), line).toBeLessThanOrEqual(width);
      expect(lines.join('\n')).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    }
    const lines = render(view, width, height, PLAIN);
    expect(lines.at(-1)).toMatch(/q save & quit$/);
    expect(lines[0]).toMatch(/3 of 41$/);
  });

  it('shows a cell escaped and the wide characters counted as two columns', () => {
    expect(render(view, 80, 24, PLAIN).join('\n')).toContain('evil \\x1b]0;title\\x07 here');
    expect(widthOf('山田')).toBe(4);
    expect(clip('山田太郎', 5)).toBe('山田…');
    expect(clip('ann@gmail.com', 20)).toBe('ann@gmail.com');
  });
});
