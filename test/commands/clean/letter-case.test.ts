// One address whatever the case of its local part (docs/assumptions.md): `Ann@x.com` and `ann@x.com` are checked and
// paid once, as mailing platforms count subscribers, unless --case-sensitive; the verdict cache and the journals an
// older mailclean wrote with capital letters in their keys still answer. In-process against the sandbox (both
// shapes), and against a real redis-server for the shared cache.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { useHome } from '../../helpers/cli.js';
import { describeWithRedis } from '../../helpers/redis.js';
import { registered, useSandboxes } from '../../helpers/sandbox.js';

const NAMES = ['anna.nowak', 'Bob.Smith', 'CAROL', 'dave'];

/** The list's addresses, the local parts spelt by `spell`. */
function list(spell: (local: string) => string): string {
  return `email,name\n${NAMES.map((n, i) => `${spell(n)}${i}@Example.org,${n}`).join('\n')}\n`;
}

describe.each(['spec', 'alt'] as const)('letter case of local parts (%s answers)', (shape) => {
  const home = useHome();
  const sandboxes = useSandboxes();
  const file = (name: string, text: string) => {
    const path = join(home().dir, name);
    writeFileSync(path, text);
    return path;
  };
  const FAST = ['--no-precheck', '--rate', '1000/1s'];

  it('two spellings in one list are one address: sent once, both rows get its verdict', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    await registered(home(), sandbox);
    const mixed = `email\nAnna.Nowak35@Example.Org\nanna.nowak35@example.org\nANNA.NOWAK35@EXAMPLE.ORG\n`;
    const out = join(home().dir, 'out.csv');
    const res = await home().run(['clean', file('l.csv', mixed), '-o', out, ...FAST]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/3 rows, email column "email", 1 unique address/);
    expect(sandbox.stats().addressesCharged).toBe(1);
    const rows = parse(readFileSync(out)) as string[][];
    expect(rows.slice(1).map((r) => [r[0], r[1]])).toEqual([
      ['Anna.Nowak35@Example.Org', 'valid'],
      ['anna.nowak35@example.org', 'valid'],
      ['ANNA.NOWAK35@EXAMPLE.ORG', 'valid'],
    ]);
  });

  it('another list spelling them otherwise is answered from the cache; --case-sensitive pays for them apart', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    await registered(home(), sandbox);
    expect(
      (
        await home().run([
          'clean',
          file(
            'a.csv',
            list((n) => n),
          ),
          '-o',
          join(home().dir, 'a.out'),
          ...FAST,
        ])
      ).code,
    ).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(4);
    const upper = file(
      'b.csv',
      list((n) => n.toUpperCase()),
    );
    const b = await home().run(['clean', upper, '-o', join(home().dir, 'b.out'), ...FAST]);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toMatch(/^4 addresses answered within 30 days come from the cache/m);
    expect(sandbox.stats().addressesCharged).toBe(4);
    // Told apart, the capitalised ones are other mailboxes: the cache holds the folded keys only, so all 4 are paid.
    const apart = await home().run([
      'clean',
      upper,
      '-o',
      join(home().dir, 'c.out'),
      '--case-sensitive',
      '--restart',
      ...FAST,
    ]);
    expect(apart.code, apart.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(8);
  });

  it('verify: one address whatever the case, unless --case-sensitive', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    await registered(home(), sandbox);
    const res = await home().run([
      'verify',
      'Ann@Example.com',
      'ann@example.com',
      '--no-precheck',
      '--json',
      'address,status',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual([
      { address: 'Ann@Example.com', status: 'valid' },
      { address: 'ann@example.com', status: 'valid' },
    ]);
    expect(sandbox.stats().addressesCharged).toBe(1);
    expect((await home().run(['verify', 'ANN@example.com', '--no-precheck', '--case-sensitive'])).code).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(2);
  });

  it("an older mailclean's cache and journal, keys with capitals, still answer: nothing is paid again", async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    await registered(home(), sandbox);
    const input = file(
      'old.csv',
      list((n) => n),
    );
    // What 0.1.0 wrote: local parts as spelt, in the journal and the cache (as --case-sensitive still writes them).
    expect((await home().run(['clean', input, '-o', join(home().dir, 'o1'), '--case-sensitive', ...FAST])).code).toBe(
      0,
    );
    expect(sandbox.stats().addressesCharged).toBe(4);
    const cachePath = (await home().run(['cache', 'path'])).stdout.trim();
    const db = new DatabaseSync(cachePath);
    const keys = () =>
      (db.prepare('SELECT key FROM verdicts ORDER BY key').all() as Array<{ key: string }>).map((r) => r.key);
    expect(keys()).toContain('Bob.Smith1@example.org');
    db.exec('PRAGMA user_version = 0');

    // The journal alone (the cache not read: --max-age 0) answers the list again, its keys folded as read.
    const journal = await home().run(['clean', input, '-o', join(home().dir, 'o2'), '--max-age', '0', ...FAST]);
    expect(journal.code, journal.stderr).toBe(0);
    expect(journal.stderr).toMatch(/All 4 addresses were answered by an earlier run of this list/);
    // The cache alone answers a list of the same addresses in capitals; its keys were folded when it was opened.
    const other = await home().run([
      'clean',
      file(
        'new.csv',
        list((n) => n.toUpperCase()),
      ),
      '-o',
      join(home().dir, 'o3'),
      ...FAST,
    ]);
    expect(other.code, other.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(4);
    expect(keys()).toEqual([
      'anna.nowak0@example.org',
      'bob.smith1@example.org',
      'carol2@example.org',
      'dave3@example.org',
    ]);
    db.close();
  });
});

describeWithRedis('test/commands/clean/letter-case.test.ts', 'letter case in the shared cache', (redis) => {
  const home = useHome();
  const sandboxes = useSandboxes();

  it("an older mailclean's shared cache, fields with capitals, is folded once and answers", async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited' });
    await registered(home(), sandbox);
    const shared = ['--shared', redis().url, '--no-precheck', '--rate', '1000/1s'];
    const a = join(home().dir, 'a.csv');
    writeFileSync(
      a,
      list((n) => n),
    );
    expect((await home().run(['clean', a, '-o', `${a}.out`, '--case-sensitive', ...shared])).code).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(4);
    // Forget that it was folded, as a cache an older mailclean filled never was.
    const where = (await home().run(['cache', 'path', '--shared', redis().url])).stdout.trim().split(' ').at(-1)!;
    const { Redis } = await import('ioredis');
    const client = new Redis(redis().url);
    try {
      await client.del(`${where}:folded`);
      expect(await client.hexists(where, 'Bob.Smith1@example.org')).toBe(1);
      const b = join(home().dir, 'b.csv');
      writeFileSync(
        b,
        list((n) => n.toUpperCase()),
      );
      const res = await home().run(['clean', b, '-o', `${b}.out`, ...shared]);
      expect(res.code, res.stderr).toBe(0);
      expect(sandbox.stats().addressesCharged).toBe(4);
      expect(await client.hexists(where, 'Bob.Smith1@example.org')).toBe(0);
      expect(await client.hexists(where, 'bob.smith1@example.org')).toBe(1);
    } finally {
      client.disconnect();
    }
  });
});
