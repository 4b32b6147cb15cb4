// An output written aside and renamed into place (src/clean/write/atomic-file.ts): what it has written is put on
// disk while it goes on (flushes behind), so that its commit has only the last part to wait for.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AtomicFile, ChunkedWriter, FLUSH_BEHIND } from '../../../src/clean/write/atomic-file.js';
import { resolveOutputPath } from '../../../src/clean/write/output-path.js';
import { tempDir } from '../scan/input/helpers.js';

const temp = tempDir();
afterAll(() => temp.remove());
const defaults = { ...FLUSH_BEHIND };
afterEach(() => Object.assign(FLUSH_BEHIND, defaults));

/** Writes `parts` chunks of `size` bytes, waiting `pauseMs` after each, then commits; returns the file. */
async function written(name: string, parts: number, size: number, pauseMs: number) {
  const target = resolveOutputPath('--output', `${temp.dir}/${name}`);
  const file = new AtomicFile(target);
  await file.ready();
  const writer = new ChunkedWriter(file.stream);
  let expected = '';
  for (let i = 0; i < parts; i++) {
    const text = String(i % 10).repeat(size);
    expected += text;
    await writer.write(text);
    await writer.flush();
    await sleep(pauseMs);
  }
  await file.commit();
  return { file, expected, path: target.path };
}

describe('AtomicFile: flushes behind the writing', () => {
  it('puts what was written on disk every so often while it is written, and commits it whole', async () => {
    Object.assign(FLUSH_BEHIND, { bytes: 64 * 1024, everyMs: 5 });
    const { file, expected, path } = await written('flushed.csv', 8, 100_000, 20);
    // Each pause is past the timer with more than the threshold waiting: a flush begins unless one still runs.
    expect(file.flushesBehind).toBeGreaterThanOrEqual(2);
    expect(readFileSync(path, 'utf8')).toBe(expected);
  });

  it('aborted after flushes began, leaves no file behind and begins none more', async () => {
    Object.assign(FLUSH_BEHIND, { bytes: 1, everyMs: 1 });
    const target = resolveOutputPath('--output', `${temp.dir}/aborted.csv`);
    const file = new AtomicFile(target);
    await file.ready();
    const writer = new ChunkedWriter(file.stream);
    await writer.write('x'.repeat(200_000));
    await writer.flush();
    // The timer fires every millisecond, but a loaded machine may run it late: wait for a flush, not a fixed time.
    for (let waited = 0; file.flushesBehind === 0 && waited < 5_000; waited += 10) await sleep(10);
    const begun = file.flushesBehind;
    expect(begun).toBeGreaterThan(0);
    file.abort();
    await sleep(20);
    expect(file.flushesBehind).toBe(begun);
    expect(existsSync(target.path)).toBe(false);
    expect(readdirSync(temp.dir).filter((name) => name.includes('aborted'))).toEqual([]);
  });

  it('begins none while less than its threshold waits, nor once committed', async () => {
    Object.assign(FLUSH_BEHIND, { bytes: 10 * 2 ** 20, everyMs: 5 });
    const { file, expected, path } = await written('small.csv', 4, 10_000, 20);
    expect(file.flushesBehind).toBe(0);
    Object.assign(FLUSH_BEHIND, { bytes: 1 });
    await sleep(30);
    expect(file.flushesBehind).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(expected);
  });
});
