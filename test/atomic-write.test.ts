// The one way mailclean replaces a file: the old version or the new one, never a mix, never a leftover, even when
// the process is killed mid-write (a child writing two large versions in turn, SIGKILLed at varied moments).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryPath, writeFileAtomic } from '../src/atomic-write.js';
import { processTag } from '../src/lock-files.js';

const BUILT = pathToFileURL(join(import.meta.dirname, '..', 'dist', 'atomic-write.js')).href;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mailclean-atomic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('replaces the whole file, private by default or with the mode asked for, and leaves nothing beside it', () => {
    const path = join(dir, 'state', 'limits.json');
    writeFileAtomic(path, 'first version, rather long');
    writeFileAtomic(path, 'second');
    expect(readFileSync(path, 'utf8')).toBe('second');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'state')).mode & 0o777).toBe(0o700);
    writeFileAtomic(join(dir, 'report.html'), new Uint8Array([60, 112, 62]), 0o644);
    expect(statSync(join(dir, 'report.html')).mode & 0o777).toBe(0o644);
    expect(readdirSync(join(dir, 'state'))).toEqual(['limits.json']);
  });

  it('fails without touching the old version or leaving a temporary file when the write cannot be made', () => {
    const path = join(dir, 'journal.json');
    writeFileSync(path, 'old');
    writeFileSync(join(dir, 'file'), 'a file, not a directory');
    expect(() => writeFileAtomic(join(dir, 'file', 'x.json'), 'new')).toThrow(/ENOTDIR|EEXIST/);
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('gives each write its own hidden temporary name beside the file, starting with the pid', () => {
    const a = temporaryPath(join(dir, 'out.csv'));
    const b = temporaryPath(join(dir, 'out.csv'));
    expect(a).not.toBe(b);
    for (const name of [a, b])
      expect(name.slice(dir.length + 1)).toMatch(new RegExp(`^\\.out\\.csv\\.${processTag()}\\.\\d+-\\d+\\.tmp$`));
  });

  it.each([
    ['flushed', '{}'],
    // Unflushed writes (the limiter's state) give up only power-cut safety: a killed writer still leaves one version.
    ['unflushed', '{ durable: false }'],
  ])(
    'killed mid-write (SIGKILL, at 12 moments), the file is always one whole version (%s)',
    async (_name, options) => {
      const size = 4 << 20;
      // The 12 writers run at once, each on its own file (most of their time is start-up and waiting on the disk).
      // Every one is killed before a failure is reported: none is left writing.
      const rounds = await Promise.allSettled(
        Array.from({ length: 12 }, async (_, round) => {
          const own = join(dir, `round-${round}`);
          mkdirSync(own);
          const path = join(own, 'state.json');
          const script = `
          import { writeFileAtomic } from ${JSON.stringify(BUILT)};
          const versions = ['a', 'b'].map((c) => Buffer.alloc(${size}, c));
          writeFileAtomic(${JSON.stringify(path)}, versions[0]);
          process.stdout.write('ready\\n');
          for (let i = 1; ; i++) writeFileAtomic(${JSON.stringify(path)}, versions[i % 2], 0o600, ${options});`;
          const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          await once(child.stdout, 'data');
          await new Promise((resolve) => setTimeout(resolve, 5 + round * 7));
          child.kill('SIGKILL');
          await once(child, 'exit');
          const content = readFileSync(path);
          expect(content.length, `round ${round}`).toBe(size);
          expect([97, 98], `round ${round}: 'a' or 'b'`).toContain(content[0]);
          expect(content.equals(Buffer.alloc(size, content[0])), `round ${round}: one version`).toBe(true);
          // Leftovers of the killed writers are hidden names carrying their pid (swept by the data directory's owner).
          expect(readdirSync(own).filter((name) => !name.startsWith('.'))).toEqual(['state.json']);
        }),
      );
      for (const round of rounds) if (round.status === 'rejected') throw round.reason;
    },
    60_000,
  );
});
