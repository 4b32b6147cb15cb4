// Re-runs of lists whose answers are known, in-process against the sandbox over real HTTP on 127.0.0.1: a copy of
// a list answered from the verdict cache by the pass over the whole file (a worker thread reads it; the run's thread
// matches the addresses by their bytes), and nothing paid twice.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../../src/sandbox/server.js';
import { useHome } from '../../helpers/cli.js';
import { registered, useSandboxes } from '../../helpers/sandbox.js';

const sandboxes = useSandboxes();
const home = useHome();

/**
 * Addresses of several kinds of answer (valid, disposable, free and role mailboxes, an unknown domain), one with
 * non-ASCII bytes, in no order the cache keeps (key order).
 */
function addresses(n: number): string[] {
  const kinds = ['person{i}@example.com', 'temp{i}@mailinator.com', 'info{i}@gmail.com', 'zoë{i}@example.org'];
  return Array.from({ length: n }, (_, i) => kinds[(i * 7) % kinds.length]!.replace('{i}', String(n - i)));
}

/** The rows of a CSV file, cells split, its header left out. */
const rowsOf = (path: string) => (parse(readFileSync(path), { bom: true }) as string[][]).slice(1);

describe.each(['spec', 'alt'] as const)('clean: a re-run whose answers are known (sandbox shape %s)', (shape) => {
  async function signedIn(): Promise<SandboxHandle> {
    const sandbox = await sandboxes.start({ plan: 'unlimited', shape, rate: { requests: 1_000, windowMs: 1_000 } });
    await registered(home(), sandbox);
    return sandbox;
  }

  it('a copy of a list is answered from the cache whole, each row as the first run answered it, nothing sent', async () => {
    const sandbox = await signedIn();
    const listed = addresses(2_500);
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, `email,n\n${listed.map((a, i) => `${a},${i}`).join('\n')}\n`);
    const fast = ['--no-precheck', '--rate', '1000/1s'];
    const first = await home().run(['clean', input, '-o', join(home().dir, 'first.csv'), ...fast]);
    expect(first.code, first.stderr).toBe(0);
    const paid = sandbox.stats().addressesCharged;
    expect(paid).toBe(2_500);

    // The role mailboxes' answers as an older mailclean stored them, without the address's kind (flags' bits 6-9):
    // the run works it out from the address.
    const [cache] = readdirSync(join(home().dataDir, 'cache')).filter((f) => f.endsWith('.sqlite'));
    const db = new DatabaseSync(join(home().dataDir, 'cache', cache!));
    expect(db.prepare("UPDATE verdicts SET flags = flags & 63 WHERE key LIKE 'info%'").run().changes).toBe(625);
    db.close();
    // Another fingerprint (a row more: another journal), the same addresses and one more the cache never saw.
    const copy = join(home().dir, 'copy.csv');
    writeFileSync(copy, `${readFileSync(input, 'utf8')}${listed[0]},again\nnew@example.net,new\n`);
    const again = await home().run(['clean', copy, '-o', join(home().dir, 'copy-out.csv'), ...fast]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^2,500 addresses answered within 30 days come from the cache: not sent/m);
    // Only the address the cache does not hold is paid for.
    expect(sandbox.stats().addressesCharged).toBe(paid + 1);
    const before = rowsOf(join(home().dir, 'first.csv'));
    const after = rowsOf(join(home().dir, 'copy-out.csv'));
    // Each row as the first run gave it: status, reason, kind, and the time of the service's answer.
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.at(-2)).toEqual(before[0]!.map((cell, i) => (i === 1 ? 'again' : cell)));
    expect(new Set(before.map((row) => row[2])).size).toBeGreaterThan(1);
  });
});
