// What `clean` tells its user (src/commands/clean/report.ts): the dry-run report and the summary of a run.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHome } from '../../helpers/cli.js';
import { registered, useSandboxes } from '../../helpers/sandbox.js';

const sandboxes = useSandboxes();
const home = useHome();

describe('clean: the dry-run report', () => {
  it('--dry-run reports what a run would spend and sends nothing', async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited' });
    await registered(home(), sandbox);
    const input = join(home().dir, 'list.csv');
    const lines = ['email,name'];
    for (let i = 0; i < 120; i++) lines.push(`person${i}@example${i % 7}.com,Name ${i}`);
    writeFileSync(input, `${lines.join('\n')}\n`);
    const res = await home().run(['clean', input, '--dry-run', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      rows: 120,
      unique: 120,
      toSend: 120,
      requests: 3,
      allowanceNeeded: 120,
    });
    expect(sandbox.stats().cleanRequests).toBe(0);
  });

  it('on a terminal, the time the rate limit imposes: none when the requests fit in one window', async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited', rate: { requests: 2, windowMs: 60_000 } });
    await registered(home(), sandbox);
    const input = join(home().dir, 'list.csv');
    const list = (n: number) => `email\n${Array.from({ length: n }, (_, i) => `p${i}@example.com`).join('\n')}\n`;
    writeFileSync(input, list(100));
    const fits = await home().run(['clean', input, '--dry-run', '--rate', '2/1m']);
    expect(fits.code, fits.stderr).toBe(0);
    expect(fits.stdout).toMatch(/^Rate limit +2\/1m → no wait \(the requests fit in one window\)$/m);
    // 5 requests at 2 a minute: the fifth waits two windows.
    writeFileSync(input, list(250));
    const waits = await home().run(['clean', input, '--dry-run', '--rate', '2/1m']);
    expect(waits.stdout).toMatch(/^Rate limit +2\/1m → at least 2m/m);
    expect(sandbox.stats().cleanRequests).toBe(0);
  });
});

describe('clean --debug', () => {
  it('says how long reading the list took, on stderr; without --debug, nothing of it', async () => {
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, `email\n${Array.from({ length: 1_234 }, (_, i) => `p${i}@example.com`).join('\n')}\n`);
    const debug = await home().run(['clean', input, '--dry-run', '--debug']);
    expect(debug.code, debug.stderr).toBe(0);
    expect(debug.stderr).toMatch(/^debug: read .*list\.csv: 1,234 rows in \d+ ms$/m);
    expect(debug.stdout).not.toContain('debug:');
    const quiet = await home().run(['clean', input, '--dry-run']);
    expect(quiet.stderr).not.toContain('debug:');
  });
});

describe.each(['spec', 'alt'] as const)('clean: the summary (sandbox shape %s)', (shape) => {
  it('--only and --rejects: each file reported with its own count', async () => {
    await registered(home(), await sandboxes.start({ shape, plan: 'unlimited' }));
    const input = join(home().dir, 'mixed.csv');
    writeFileSync(input, 'email\nann@example.com\nbob@example.com\nbad@@x\n,\nx@mailinator.com\n');
    const keep = join(home().dir, 'keep.csv');
    const drop = join(home().dir, 'drop.csv');
    const res = await home().run(['clean', input, '--only', 'valid', '-o', keep, '--rejects', drop]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(
      new RegExp(
        `^2 rows written to ${keep}, 3 rows to ${drop}; spent 2 addresses in 1 request; the precheck saved 1 address of the allowance\\.$`,
        'm',
      ),
    );
    expect(readFileSync(keep, 'utf8').trim().split('\n')).toHaveLength(3);
    expect(readFileSync(drop, 'utf8').trim().split('\n')).toHaveLength(4);
  });
});
