// The review's decisions: accept, reject, edit, accept a whole domain, undo a step at a time, and going on from the
// steps saved beside the list (including a damaged or foreign side file, refused rather than overwritten).
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { type Item, Review } from '../../src/review/decisions.js';
import { loadSteps, removeSideFile, saveSteps, sideFilePath } from '../../src/review/side-file.js';

const ITEMS: Item[] = [
  { row: 0, line: 2, typed: 'ann@gmial.com', fix: 'ann@gmail.com' },
  { row: 2, line: 4, typed: 'bob@hotmial.com', fix: 'bob@hotmail.com' },
  { row: 3, line: 5, typed: 'Cy@GMIAL.com', fix: 'Cy@gmail.com' },
  { row: 7, line: 9, typed: 'di@yaho.com', fix: 'di@yahoo.com' },
];

describe('Review', () => {
  it('decides the rows in order; accept takes the fix or an address typed instead, reject takes none', () => {
    const review = new Review(ITEMS);
    expect(review.current()?.row).toBe(0);
    review.accept();
    review.reject();
    review.accept('cy@example.org');
    expect([...review.decisions().values()]).toEqual([
      { row: 0, typed: 'ann@gmial.com', kind: 'accept', address: 'ann@gmail.com' },
      { row: 2, typed: 'bob@hotmial.com', kind: 'reject' },
      { row: 3, typed: 'Cy@GMIAL.com', kind: 'accept', address: 'cy@example.org' },
    ]);
    expect(review.current()?.row).toBe(7);
    expect(review.position()).toBe(4);
    expect(review.counts()).toEqual({ accepted: 2, rejected: 1, left: 1 });
    review.accept();
    expect(review.current()).toBeUndefined();
    expect(review.position()).toBe(5);
    // Past the last row, a decision decides nothing.
    expect(review.accept()).toEqual([]);
    expect(review.reject()).toEqual([]);
    expect(review.acceptDomain()).toEqual([]);
  });

  it('accepts every undecided row of the domain at once, whatever its letter case, and undoes it as one step', () => {
    const review = new Review(ITEMS);
    review.acceptDomain();
    expect([...review.decisions().keys()]).toEqual([0, 3]);
    expect(review.decisionOf(3)).toMatchObject({ kind: 'accept', address: 'Cy@gmail.com' });
    expect(review.current()?.row).toBe(2);
    review.reject();
    expect(review.undo()).toHaveLength(1);
    expect(review.current()?.row).toBe(2);
    expect(review.undo().map((d) => d.row)).toEqual([0, 3]);
    expect(review.decisions().size).toBe(0);
    expect(review.current()?.row).toBe(0);
    expect(review.undo()).toEqual([]);
  });

  it('a domain already partly decided: only its undecided rows are taken', () => {
    const review = new Review(ITEMS);
    review.reject();
    review.acceptDomain();
    expect(review.decisionOf(0)?.kind).toBe('reject');
    expect(review.decisionOf(2)?.kind).toBe('accept');
    expect(review.decisionOf(3)).toBeUndefined();
  });

  it('replays saved steps, leaving out a decision whose row holds another address now', () => {
    const first = new Review(ITEMS);
    first.acceptDomain();
    first.reject();
    const saved = first.history;
    const changed = ITEMS.map((item) => (item.row === 3 ? { ...item, typed: 'cy@other.com' } : item));
    const again = new Review(changed);
    expect(again.replay(saved)).toEqual({ kept: 2, dropped: 1 });
    expect([...again.decisions().keys()].sort()).toEqual([0, 2]);
    expect(again.current()?.row).toBe(3);
    // The replayed steps stay steps: undo takes back the last.
    expect(again.undo().map((d) => d.row)).toEqual([2]);
  });
});

describe('the side file', () => {
  let dir: string;
  let list: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mailclean-review-'));
    list = join(dir, 'list.csv');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the steps beside the list, private, and gives them back to a new review', () => {
    expect(loadSteps(list)).toEqual([]);
    const review = new Review(ITEMS);
    review.accept();
    saveSteps(list, review.history);
    review.acceptDomain();
    saveSteps(list, review.history);
    expect(sideFilePath(list)).toBe(`${list}.review.json`);
    expect(statSync(sideFilePath(list)).mode & 0o777).toBe(0o600);
    const resumed = new Review(ITEMS);
    resumed.replay(loadSteps(list));
    expect(resumed.decisions()).toEqual(review.decisions());
    expect(resumed.history).toEqual(review.history);
    removeSideFile(list);
    expect(loadSteps(list)).toEqual([]);
  });

  it.each([
    ['not JSON', '{"version":1,'],
    ['another version', '{"version":2,"steps":[]}'],
    ['a decision without its address', '{"version":1,"steps":[[{"row":0,"typed":"a@b.c","kind":"accept"}]]}'],
  ])('refuses a file that is not a review of its own (%s), and leaves it as it was', (_case, text) => {
    writeFileSync(sideFilePath(list), text);
    expect(() => loadSteps(list)).toThrow(UsageError);
    expect(() => loadSteps(list)).toThrow(/list\.csv\.review\.json: not a review's saved decisions/);
    expect(readFileSync(sideFilePath(list), 'utf8')).toBe(text);
  });
});
