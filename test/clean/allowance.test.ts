// The monthly allowance and reruns, as a user on the free plan meets them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../src/sandbox/server.js';
import { TestHome } from '../helpers/cli.js';
import { interactive } from '../helpers/terminal.js';

function list(n: number, tag: string): string {
  return `email\n${Array.from({ length: n }, (_, i) => `${tag}${i}@example.com`).join('\n')}\n`;
}

describe.each(['spec', 'alt'] as const)('clean: allowance and reruns (sandbox shape %s)', (shape) => {
  let sandbox: SandboxHandle | undefined;
  let home: TestHome | undefined;
  afterEach(async () => {
    await sandbox?.close();
    home?.cleanup();
    sandbox = undefined;
    home = undefined;
  });

  async function setup(options: SandboxOptions) {
    sandbox = await startSandbox({ port: 0, shape, ...options });
    home = new TestHome();
    const h = home;
    const urls = ['--api-url', sandbox.url, '--clean-url', sandbox.url];
    const reg = await h.run([...urls, 'register', '--service', 'clean', '--name', 'T', '--email', 'free@example.com', '--password-stdin'], { stdin: 'a long password' });
    expect(reg.code, reg.stderr).toBe(0);
    const file = (name: string, text: string) => {
      const path = join(h.dir, name);
      writeFileSync(path, text);
      return path;
    };
    return { home: h, sandbox, file };
  }

  it('free plan with 10 left, a 40-address list: the last batch shrinks to 10, 30 stay unchecked, exit 3', async () => {
    const { home, sandbox, file } = await setup({ plan: 'free' });
    const first = await home.run(['clean', file('a.csv', list(40, 'a')), '-o', join(home.dir, 'a.out.csv')]);
    expect(first.code, first.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(40);

    const second = await home.run(['clean', file('b.csv', list(40, 'b')), '-o', join(home.dir, 'b.out.csv')]);
    expect(second.code, second.stderr).toBe(3);
    expect(sandbox.stats().addressesCharged).toBe(50);
    const statuses = readFileSync(join(home.dir, 'b.out.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')[1]);
    expect(statuses.filter((s) => s === 'valid')).toHaveLength(10);
    expect(statuses.filter((s) => s === 'unchecked')).toHaveLength(30);
    // The spec-shaped sandbox names the renewal date; the alt one does not.
    const renews = shape === 'spec' ? '; renews \\d{4}-\\d{2}-01' : '';
    const when = shape === 'spec' ? 'on \\d{4}-\\d{2}-01' : 'next month';
    expect(second.stderr).toMatch(new RegExp(`^partial: 30 rows unchecked: the monthly allowance is used up \\(0 left${renews}\\)\\.$`, 'm'));
    expect(second.stderr).toMatch(
      new RegExp(`^hint: a larger plan raises the monthly allowance; --local checks the rest now with the built-in engine; or run the same command with --resume after the allowance renews \\(${when}\\): nothing is paid twice\\.$`, 'm'),
    );
    expect(second.stderr).toMatch(/spent 10 addresses in \d+ requests/);

    // What the refusal said is shown next to what a run would need.
    const dry = await home.run(['clean', file('c.csv', list(5, 'c')), '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^Allowance needed\s+5$/m);
    expect(dry.stdout).toMatch(/^Allowance left\s+0 left as of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(5 would stay unchecked\)$/m);
    const json = await home.run(['clean', join(home.dir, 'c.csv'), '--dry-run', '--json', 'allowanceNeeded,allowanceLeft']);
    expect(JSON.parse(json.stdout)).toEqual({ allowanceNeeded: 5, allowanceLeft: 0 });
  });

  it('the signin answer tells the allowance: --dry-run shows it before anything is spent', async () => {
    const { home, sandbox, file } = await setup({ plan: 'free' });
    await home.run(['clean', file('a.csv', list(20, 'a')), '-o', join(home.dir, 'a.out.csv')]);
    expect((await home.run(['logout', '--service', 'clean'])).code).toBe(0);
    const login = await home.run(['login', '--service', 'clean', '--email', 'free@example.com', '--password-stdin'], { stdin: 'a long password' });
    expect(login.code, login.stderr).toBe(0);
    const dry = await home.run(['clean', file('b.csv', list(40, 'b')), '--dry-run']);
    expect(dry.stdout).toMatch(/^Allowance left\s+30 left as of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(10 would stay unchecked\)$/m);
    expect(sandbox.stats().addressesCharged).toBe(20);
  });

  it('the same when the service refuses with 402', async () => {
    const { home, sandbox, file } = await setup({ plan: 'free', allowanceStatus: 402 });
    await home.run(['clean', file('a.csv', list(45, 'a')), '-o', join(home.dir, 'a.out.csv')]);
    const second = await home.run(['clean', file('b.csv', list(20, 'b')), '-o', join(home.dir, 'b.out.csv')]);
    expect(second.code, second.stderr).toBe(3);
    expect(sandbox.stats().addressesCharged).toBe(50);
  });

  it('on a terminal, declining to resume says what starting over costs and asks before paying again', async () => {
    const { home, sandbox, file } = await setup({ plan: 'free' });
    const input = file('a.csv', list(60, 'a'));
    const out = join(home.dir, 'a.out.csv');
    const first = await home.run(['clean', input, '-o', out]);
    expect(first.code, first.stderr).toBe(3);
    const declined = await interactive(home, ['clean', input, '-o', out], [
      [/An earlier run of this list saved 50 answers; 10 addresses are still to check\.\n.*Resume it\?/, 'n'],
      [/Starting over sends all 60 addresses again: 50 of them are paid a second time\.\n.*Start over\?/, 'n'],
    ]);
    expect(declined.code, declined.stderr).toBe(0);
    expect(declined.stderr).toMatch(/Nothing was sent\./);
    expect(sandbox.stats().addressesCharged).toBe(50);
  });

  it('--only reports each file with its own count; an unknown status is a usage error listing them', async () => {
    const { home, file } = await setup({ plan: 'unlimited' });
    const input = file('mixed.csv', 'email\nann@example.com\nbob@example.com\nbad@@x\n,\nx@mailinator.com\n');
    const keep = join(home.dir, 'keep.csv');
    const drop = join(home.dir, 'drop.csv');
    const res = await home.run(['clean', input, '--only', 'valid', '-o', keep, '--rejects', drop]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(new RegExp(`^2 rows written to ${keep}, 3 rows to ${drop}; spent 3 addresses in 1 request\\.$`, 'm'));
    expect(readFileSync(keep, 'utf8').trim().split('\n')).toHaveLength(3);
    expect(readFileSync(drop, 'utf8').trim().split('\n')).toHaveLength(4);

    const typo = await home.run(['clean', input, '--only', 'valid,riskyy', '-o', keep]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^error: --only: "riskyy" is not a status\nhint: statuses: valid, risky, invalid, unknown, unchecked\n$/);

    const json = await home.run(['clean', input, '--json']);
    expect(json.code).toBe(2);
    expect(json.stderr).toMatch(/--json goes with --dry-run/);
  });
});
