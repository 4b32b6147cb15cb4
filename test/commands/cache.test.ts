// The verdict cache across lists, and `mailclean cache stats|clear|path`.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { expectError, TestHome } from '../helpers/cli.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';
import { interactive } from '../helpers/terminal.js';

/** A list of `n` addresses numbered from `from`. */
function list(from: number, n: number): string {
  return `email,name\n${Array.from({ length: n }, (_, i) => `c${from + i}@example.com,N${from + i}`).join('\n')}\n`;
}

describe('the verdict cache', () => {
  const sandboxes = useSandboxes();
  let sandbox: SandboxHandle;
  let home: TestHome;
  beforeEach(async () => {
    sandbox = await sandboxes.start({ plan: 'unlimited' });
    home = new TestHome();
    await registered(home, sandbox, { email: 'cache@example.com' });
  });
  afterEach(() => home.cleanup());

  const file = (name: string, text: string) => {
    const path = join(home.dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('list B sharing 60% of list A pays only for its new addresses, with the original answer times', async () => {
    const a = await home.run(['clean', file('a.csv', list(0, 100)), '-o', join(home.dir, 'a.out.csv')]);
    expect(a.code, a.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(100);

    // B: 60 of A's addresses (c40..c99) and 40 new ones (c100..c139).
    const dry = await home.run([
      'clean',
      file('b.csv', list(40, 100)),
      '--dry-run',
      '--json',
      'answeredFromCache,toSend',
    ]);
    expect(JSON.parse(dry.stdout)).toEqual({ answeredFromCache: 60, toSend: 40 });
    const plain = await home.run(['clean', join(home.dir, 'b.csv'), '--dry-run']);
    expect(plain.stdout).toMatch(/^Answered from cache\s+60$/m);
    expect(plain.stdout).toMatch(/^To send\s+40$/m);

    const b = await home.run([
      'clean',
      join(home.dir, 'b.csv'),
      '-o',
      join(home.dir, 'b.out.csv'),
      '--summary-json',
      join(home.dir, 's.json'),
    ]);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toMatch(
      /60 addresses answered within 30 days come from the cache: not sent \(--max-age 0 asks again\)\./,
    );
    expect(sandbox.stats().addressesCharged).toBe(140);
    expect(JSON.parse(readFileSync(join(home.dir, 's.json'), 'utf8')).answered).toEqual({
      fromJournal: 0,
      fromCache: 60,
      sent: 40,
    });

    const checkedAt = (path: string) => {
      const [header, ...lines] = readFileSync(path, 'utf8').trim().split('\n');
      const at = header!.split(',').indexOf('email_checked_at');
      return new Map(lines.map((l) => [l.split(',')[0], l.split(',')[at]]));
    };
    const fromA = checkedAt(join(home.dir, 'a.out.csv'));
    const fromB = checkedAt(join(home.dir, 'b.out.csv'));
    expect(fromB.get('c40@example.com')).toBe(fromA.get('c40@example.com'));
    expect(fromB.get('c99@example.com')).toBe(fromA.get('c99@example.com'));
    expect(fromB.get('c100@example.com')).not.toBe(fromA.get('c99@example.com'));
  });

  it('the cache file and its WAL are private to the user (0600)', async () => {
    const run = await home.run(['clean', file('a.csv', list(0, 10)), '-o', join(home.dir, 'a.out.csv')]);
    expect(run.code, run.stderr).toBe(0);
    const path = (await home.run(['cache', 'path'])).stdout.trim();
    for (const suffix of ['', '-wal'])
      if (existsSync(path + suffix)) expect((statSync(path + suffix).mode & 0o777).toString(8)).toBe('600');
    expect(existsSync(path)).toBe(true);
  });

  it('--max-age 0 pays again, and so does --restart', async () => {
    await home.run(['clean', file('a.csv', list(0, 50)), '-o', join(home.dir, 'a.out.csv')]);
    const other = file('b.csv', list(0, 50).replace('email,name', 'email,name2'));
    const again = await home.run(['clean', other, '-o', join(home.dir, 'b.out.csv'), '--max-age', '0']);
    expect(again.code, again.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(100);
    const restart = await home.run(['clean', join(home.dir, 'a.csv'), '-o', join(home.dir, 'a.out.csv'), '--restart']);
    expect(restart.code, restart.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(150);

    const bad = await home.run(['clean', other, '--max-age', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --max-age: "soon" is not a duration$/m);
  });

  it('an answer older than --max-age is asked again', async () => {
    await home.run(['clean', file('a.csv', list(0, 10)), '-o', join(home.dir, 'a.out.csv')]);
    await new Promise((r) => setTimeout(r, 1_100));
    const b = await home.run([
      'clean',
      file('b.csv', list(0, 10).replace('email,name', 'email,x')),
      '-o',
      join(home.dir, 'b.out.csv'),
      '--max-age',
      '1s',
    ]);
    expect(b.code, b.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(20);
  });

  it('cache stats, clear --older-than, clear, path', async () => {
    await home.run(['clean', file('a.csv', list(0, 30)), '-o', join(home.dir, 'a.out.csv')]);
    const stats = await home.run(['cache', 'stats', '--json']);
    expect(stats.code, stats.stderr).toBe(0);
    const s = JSON.parse(stats.stdout);
    expect(s.entries).toBe(30);
    expect(Date.parse(s.newest)).toBeGreaterThan(Date.now() - 60_000);
    expect(s.bytes).toBeGreaterThan(0);
    expect((await home.run(['cache', 'stats'])).stdout).toMatch(/^Answers\s+30$/m);

    const path = await home.run(['cache', 'path']);
    expect(path.stdout.trim().startsWith(join(home.dataDir, 'cache'))).toBe(true);
    expect(existsSync(path.stdout.trim())).toBe(true);

    const keep = await home.run(['cache', 'clear', '--older-than', '90d', '--json', '--yes']);
    expect(JSON.parse(keep.stdout)).toEqual({ removed: 0 });
    // What was paid for is not forgotten unasked: a pipe or CI needs --yes; a terminal is asked, no by default.
    expectError(
      await home.run(['cache', 'clear']),
      2,
      'error: cache clear removes all 30 answers from the cache, which were paid for; nothing was removed',
    );
    const declined = await interactive(
      home,
      ['cache', 'clear'],
      [
        [
          /This removes all 30 answers from the cache: clean and verify then pay again for those addresses\.\n.*Remove them\?/,
          'n',
        ],
      ],
    );
    expect(declined.code, declined.stderr).toBe(0);
    expect(declined.stderr).toMatch(/Nothing was removed\./);
    expect(JSON.parse((await home.run(['cache', 'stats', '--json'])).stdout).entries).toBe(30);
    const agreed = await interactive(home, ['cache', 'clear'], [[/Remove them\?/, 'y']]);
    expect(agreed.code, agreed.stderr).toBe(0);
    expect(agreed.stderr).toMatch(/Removed 30 answers from the cache\./);
    expect(JSON.parse((await home.run(['cache', 'stats', '--json'])).stdout).entries).toBe(0);
  });

  it('a cache file that is not a database: one warning, and the run goes on without it, with the service or --local', async () => {
    const path = (await home.run(['cache', 'path'])).stdout.trim();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, 'this is not an SQLite database, it only sits where one should be\n'.repeat(100));
    const sent = await home.run(['clean', file('a.csv', list(0, 20)), '-o', join(home.dir, 'a.out.csv')]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toMatch(
      /^warning: the verdict cache cannot be opened \(.+\): addresses answered before are sent and paid for again/m,
    );
    expect(sandbox.stats().addressesCharged).toBe(20);
    const local = await home.run(['clean', file('b.csv', list(0, 30)), '--local', '--format', 'ndjson']);
    expect(local.code, local.stderr).toBe(0);
    expect(local.stderr).toMatch(
      /^warning: the verdict cache cannot be opened \(.+\): the engine checks what the journal does not answer$/m,
    );
    expect(local.stdout.trim().split('\n')).toHaveLength(30);
  });

  it('a re-run its journal answers, and any run with --max-age 0 that sends nothing, never opens the cache', async () => {
    const a = file('a.csv', list(0, 40));
    const first = await home.run(['clean', a, '-o', join(home.dir, 'first.csv')]);
    expect(first.code, first.stderr).toBe(0);
    // The cache is damaged: a run that opened it would say so.
    const path = (await home.run(['cache', 'path'])).stdout.trim();
    for (const suffix of ['-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    writeFileSync(path, 'this is not an SQLite database, it only sits where one should be\n'.repeat(100));
    for (const extra of [[], ['--max-age', '0']]) {
      const again = await home.run(['clean', a, '-o', join(home.dir, 'again.csv'), ...extra]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).not.toMatch(/verdict cache/);
      expect(readFileSync(join(home.dir, 'again.csv'), 'utf8')).toBe(readFileSync(join(home.dir, 'first.csv'), 'utf8'));
      const dry = await home.run(['clean', a, '--dry-run', '--json', 'alreadyChecked,toSend', ...extra]);
      expect(dry.stderr).not.toMatch(/verdict cache/);
      expect(JSON.parse(dry.stdout)).toEqual({ alreadyChecked: 40, toSend: 0 });
    }
    expect(sandbox.stats().addressesCharged).toBe(40);
    // A list the journal does not answer, with --max-age 0: nothing is looked up, the cache is opened to keep what
    // is sent (and found damaged, as warned).
    const b = await home.run([
      'clean',
      file('b.csv', list(40, 5)),
      '-o',
      join(home.dir, 'b.out.csv'),
      '--max-age',
      '0',
    ]);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toMatch(/^warning: the verdict cache cannot be opened/m);
    expect(sandbox.stats().addressesCharged).toBe(45);
  });

  it('without a cleaning account, cache stats shows an empty cache (exit 0); clear says why it cannot', async () => {
    const other = new TestHome();
    try {
      const res = await other.run(['cache', 'stats', '--json']);
      expect(res.code, res.stderr).toBe(0);
      expect(JSON.parse(res.stdout)).toEqual({ entries: 0, oldest: null, newest: null, bytes: null });
      const tty = await other.run(['cache', 'stats'], { tty: true });
      expect(tty.stdout).toMatch(/^Answers\s+0$/m);
      expect(tty.stderr).toMatch(/has no cleaning account yet, so no cache: `mailclean login --clean-url URL`/);
      const clear = await other.run(['cache', 'clear', '--yes']);
      expect(clear.code).toBe(2);
      expect(clear.stderr).toMatch(/has no cleaning account .*: the cache is kept per account/);
    } finally {
      other.cleanup();
    }
  });
});
