// `clean` with the cleaning service (src/commands/clean/with-service.ts), in-process against the sandbox over real
// HTTP on 127.0.0.1: what is spent, reruns and the journal, the monthly allowance, faults, the limiter's state.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle, SandboxOptions } from '../../../src/sandbox/server.js';
import { TestHome, useHome } from '../../helpers/cli.js';
import { FakeClock } from '../../helpers/clock.js';
import { startDnsServer } from '../../helpers/dns-server.js';
import { PASSWORD, registered, useSandboxes } from '../../helpers/sandbox.js';
import { onSmallDisk } from '../../helpers/small-disk.js';
import { interactive } from '../../helpers/terminal.js';

/** A list of `n` addresses on seven domains, with a name column. */
function addresses(n: number, prefix = 'person'): string {
  const lines = ['email,name'];
  for (let i = 0; i < n; i++) lines.push(`${prefix}${i}@example${i % 7}.com,Name ${i}`);
  return `${lines.join('\n')}\n`;
}

/** A list of `n` addresses, the email column alone. */
function list(n: number, tag: string): string {
  return `email\n${Array.from({ length: n }, (_, i) => `${tag}${i}@example.com`).join('\n')}\n`;
}

/** The rows of a CSV output, cells split. */
function outputRows(path: string): string[][] {
  return parse(readFileSync(path), { bom: true, relax_column_count: true }) as string[][];
}

const sandboxes = useSandboxes();
const home = useHome();

/** A sandbox (the unlimited plan unless told) and a cleaning account on it, saved in `home`'s profile. */
async function signedIn(options: SandboxOptions = {}, email?: string): Promise<SandboxHandle> {
  const sandbox = await sandboxes.start({ plan: 'unlimited', ...options });
  await registered(home(), sandbox, { email });
  return sandbox;
}

describe('clean: spending', () => {
  it('spends only unique, well-formed addresses, and nothing on a resumed finished run', async () => {
    const sandbox = await signedIn();
    const input = join(home().dir, 'list.csv');
    const rows = [
      'email,name',
      'ann@example.com,Ann',
      'ANN@EXAMPLE.COM,Ann in capitals is the same subscriber',
      'ann@Example.COM,Ann again',
      ' ann@example.com ,Ann with spaces',
      ',blank',
      'not-an-address,bad',
      'bob@,bad',
      'bob@example.org,Bob',
      'carol@mailinator.com,Carol',
    ];
    writeFileSync(input, `${rows.join('\n')}\n`);
    const out = join(home().dir, 'out.json');
    // --no-precheck: every address goes to the service (the precheck would decide carol's disposable domain, even
    // offline), so the journal answers all three and the rerun below finds the list finished.
    const first = await home().run(['clean', input, '-o', out, '--format', 'json', '--no-precheck']);
    expect(first.code, first.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(3);
    expect(first.stderr).toMatch(/9 rows, email column "email", 3 unique addresses/);
    const results = JSON.parse(readFileSync(out, 'utf8')) as Array<Record<string, unknown>>;
    expect(results).toHaveLength(9);
    expect(results.map((r) => r.email_status)).toEqual([
      'valid',
      'valid',
      'valid',
      'valid',
      'invalid',
      'invalid',
      'invalid',
      'valid',
      'risky',
    ]);
    // The row's own cell is written as it was.
    expect(results[1]).toMatchObject({ email: 'ANN@EXAMPLE.COM', email_status: 'valid' });
    expect(results[4]!.email_reason).toBe('blank');
    expect(results[5]!.email_reason).toBe('syntax');
    expect(results[8]).toMatchObject({ email_disposable: true, name: 'Carol' });

    const again = await home().run(['clean', input, '-o', out, '--format', 'json', '--resume']);
    expect(again.code).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(3);
    expect(sandbox.stats().cleanRequests).toBe(1);

    // A plain rerun of a finished list (a scheduled job) reuses the answers: outputs again, nothing paid.
    writeFileSync(out, '');
    const rerun = await home().run(['clean', input, '-o', out, '--format', 'json']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/All 3 addresses were answered by an earlier run of this list: nothing is sent/);
    // With the precheck on, its lookups name each domain's provider (none here: DNS does not answer in tests).
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(results.map((r) => ({ ...r, email_provider: null })));
    expect(sandbox.stats().addressesCharged).toBe(3);

    const restart = await home().run(['clean', input, '-o', out, '--format', 'json', '--restart', '--no-precheck']);
    expect(restart.code, restart.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(6);

    // --case-sensitive: ANN@ is another mailbox, the one address the list's journal does not answer.
    const apart = join(home().dir, 'apart.json');
    const sensitive = await home().run([
      'clean',
      input,
      '-o',
      apart,
      '--format',
      'json',
      '--no-precheck',
      '--case-sensitive',
      '--resume',
    ]);
    expect(sensitive.code, sensitive.stderr).toBe(0);
    expect(sensitive.stderr).toMatch(/4 unique addresses/);
    expect(sandbox.stats().addressesCharged).toBe(7);
  });

  it('an unfinished earlier run is not silently resumed or paid again without a terminal', async () => {
    const sandbox = await signedIn({ plan: 'free' });
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, addresses(60));
    const first = await home().run(['clean', input, '-o', join(home().dir, 'out.csv')]);
    expect(first.code, first.stderr).toBe(3);
    const again = await home().run(['clean', input, '-o', join(home().dir, 'out.csv')]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/saved 50 answers and has 10 addresses left to check/);
    expect(again.stderr).toMatch(/--resume .*--restart/);
    expect(sandbox.stats().addressesCharged).toBe(50);
  });

  it('derives a reason from the service record only where its flags justify one', async () => {
    await signedIn();
    const input = join(home().dir, 'reasons.csv');
    // The sandbox answers like the service: a status and flags, no reason. All sent: the precheck would decide two.
    writeFileSync(input, 'email\ninfo@example.org\ncarol@mailinator.com\ndan@example.test\nann@example.org\n');
    const res = await home().run(['clean', input, '--format', 'ndjson', '--no-precheck']);
    expect(res.code, res.stderr).toBe(0);
    const rows = res.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows.map((r) => [r.email, r.email_status, r.email_reason])).toEqual([
      ['info@example.org', 'risky', null], // a role account: valid false, no flag says why, so no reason is claimed
      ['carol@mailinator.com', 'risky', 'disposable'],
      ['dan@example.test', 'invalid', 'invalid_domain'],
      ['ann@example.org', 'valid', null],
    ]);
  });

  it('--max-spend stops at the cap: exit 3, the rest unchecked', async () => {
    const sandbox = await signedIn();
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, addresses(120));
    const out = join(home().dir, 'out.csv');
    const res = await home().run(['clean', input, '-o', out, '--max-spend', '70']);
    expect(res.code, res.stderr).toBe(3);
    expect(sandbox.stats().addressesCharged).toBe(70);
    const statuses = outputRows(out)
      .slice(1)
      .map((r) => r[2]);
    expect(statuses.filter((s) => s === 'unchecked')).toHaveLength(50);
  });
});

describe.each(['spec', 'alt'] as const)('clean: a list edited while it is sent (sandbox shape %s)', (shape) => {
  it('is matched by address (its rows renumbered): what was answered is written, addresses new to it are unchecked', async () => {
    const sandbox = await signedIn({ shape, faults: { latencyMs: 300 } });
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, addresses(120));
    const out = join(home().dir, 'out.csv');
    const running = home().run(['clean', input, '-o', out, '--concurrency', '1']);
    while (sandbox.stats().cleanRequests === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    // A new first row: every row after it moves down one.
    writeFileSync(input, addresses(120).replace('email,name\n', 'email,name\nnew@example.com,New\n'));
    const res = await running;
    expect(res.stderr).toContain(`${input} changed during the run: its rows get the answers of their addresses`);
    expect(sandbox.stats().addressesCharged).toBe(120);
    const rows = outputRows(out).slice(1);
    expect(rows[0]!.slice(0, 3)).toEqual(['new@example.com', 'New', 'unchecked']);
    for (const row of rows.slice(1)) expect(row[2], row[0]).toBe('valid');
    expect(rows.slice(1).map((r) => r[0])).toEqual(
      addresses(120)
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',')[0]),
    );
    expect(res.code, res.stderr).toBe(3);
  });
});

describe('clean: allowance', () => {
  it('free plan, 120 unique: exit 3 with 50 checked and 70 unchecked; each month --resume checks 50 more, then finishes', async () => {
    // One clock for the service and the CLI: both see the month turn at once.
    const clock = new FakeClock(Date.UTC(2026, 10, 20, 12));
    home().clock = clock;
    const sandbox = await signedIn({ plan: 'free', now: clock.now, tokenTtlMs: 365 * 86_400_000 });
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, addresses(120));
    const out = join(home().dir, 'out.csv');
    const first = await home().run(['clean', input, '-o', out]);
    expect(first.code, first.stderr).toBe(3);
    expect(first.stderr).toMatch(
      /70 rows unchecked: the monthly allowance is used up \(0 left; renews 2026-12-01\)\.\n/,
    );
    expect(first.stderr).toMatch(
      /a larger plan raises the monthly allowance \(after an upgrade, --resume goes on at once\); --local checks the rest now/,
    );
    expect(first.stderr).toMatch(/--resume/);
    let statuses = outputRows(out)
      .slice(1)
      .map((r) => r[2]);
    expect(statuses.filter((s) => s === 'valid')).toHaveLength(50);
    expect(statuses.filter((s) => s === 'unchecked')).toHaveLength(70);
    expect(sandbox.stats().addressesCharged).toBe(50);
    const requestsBefore = sandbox.stats().cleanRequests;

    // Later the same month: one address asks whether the allowance is still used up; the refusal costs nothing.
    clock.set('2026-11-30T23:59:00Z');
    const refused = await home().run(['clean', input, '-o', out, '--resume']);
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toMatch(/; nothing spent \(1 request sent\)\.\n/);
    expect(refused.stderr).toMatch(/70 rows unchecked: the monthly allowance is used up \(0 left; renews 2026-12-01\)/);
    expect(sandbox.stats().cleanRequests).toBe(requestsBefore + 1);
    expect(sandbox.stats().allowanceRefused).toBe(1);
    expect(sandbox.stats().addressesCharged).toBe(50);

    // The month turns for both: the next 50 go with no other step.
    clock.set('2026-12-01T00:01:00Z');
    const second = await home().run(['clean', input, '-o', out, '--resume']);
    expect(second.code, second.stderr).toBe(3);
    expect(second.stderr).toMatch(/20 rows unchecked: the monthly allowance is used up \(0 left; renews 2027-01-01\)/);
    expect(sandbox.stats().addressesCharged).toBe(100);
    clock.set('2027-01-01T00:01:00Z');
    const third = await home().run(['clean', input, '-o', out, '--resume']);
    expect(third.code, third.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(120);
    statuses = outputRows(out)
      .slice(1)
      .map((r) => r[2]);
    expect(statuses.every((s) => s === 'valid')).toBe(true);
  });
});

describe.each(['spec', 'alt'] as const)('clean: the turn of a month (%s answers)', (shape) => {
  it('a run across the midnight ending November books 100 addresses to November and 50 to December', async () => {
    const clock = new FakeClock(Date.parse('2026-11-30T23:59:58.000Z'));
    home().clock = clock;
    const sandbox = await signedIn({ shape, plan: 'pro', now: clock.now, tokenTtlMs: 365 * 86_400_000 });
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, list(150, 'm'));
    // One request a second: at 23:59:58, 23:59:59 and just after midnight (the limiter's sleeps move this clock).
    const run = await home().run([
      'clean',
      input,
      '-o',
      join(home().dir, 'out.csv'),
      '--rate',
      '1/1s',
      '--concurrency',
      '1',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(150);
    expect(clock.now()).toBeGreaterThan(Date.parse('2026-12-01T00:00:00Z'));
    const december = await home().run(['allowance', '--json', 'month,spentThisMachine']);
    expect(JSON.parse(december.stdout)).toEqual({ month: '2026-12', spentThisMachine: 50 });
    clock.set('2026-11-30T23:59:59.999Z');
    const november = await home().run(['allowance', '--json', 'month,spentThisMachine']);
    expect(JSON.parse(november.stdout)).toEqual({ month: '2026-11', spentThisMachine: 100 });
  });

  it("November's refusal at 23:59:59 does not hold in December: the next run sends at once, nothing asked first", async () => {
    const clock = new FakeClock(Date.parse('2026-11-30T23:59:59.000Z'));
    home().clock = clock;
    const sandbox = await signedIn({ shape, plan: 'free', now: clock.now, tokenTtlMs: 365 * 86_400_000 });
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, list(80, 'n'));
    const out = join(home().dir, 'out.csv');
    expect((await home().run(['clean', input, '-o', out])).code).toBe(3);
    expect(JSON.parse((await home().run(['allowance', '--json', 'left'])).stdout)).toEqual({ left: 0 });
    clock.set('2026-12-01T00:00:01.000Z');
    expect(JSON.parse((await home().run(['allowance', '--json', 'left'])).stdout)).toEqual({ left: null });
    const requests = sandbox.stats().cleanRequests;
    const resumed = await home().run(['clean', input, '-o', out, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    // The 30 left go in one request: no lone address asked first.
    expect(sandbox.stats().cleanRequests).toBe(requests + 1);
    expect(sandbox.stats().addressesCharged).toBe(80);
  });
});

describe.each(['spec', 'alt'] as const)(
  'clean: allowance and reruns as a free plan meets them (sandbox shape %s)',
  (shape) => {
    // Mid-month for the CLI and the service alike: what a month's allowance allows does not depend on today's date.
    let clock: FakeClock;
    beforeEach(() => {
      clock = new FakeClock(Date.parse('2026-11-10T12:00:00Z'));
      home().clock = clock;
    });
    const free = { shape, plan: 'free', now: () => clock.now(), tokenTtlMs: 365 * 86_400_000 } as const;
    const file = (name: string, text: string) => {
      const path = join(home().dir, name);
      writeFileSync(path, text);
      return path;
    };

    it('free plan with 10 left, a 40-address list: the last batch shrinks to 10, 30 stay unchecked, exit 3', async () => {
      const sandbox = await signedIn(free);
      const first = await home().run(['clean', file('a.csv', list(40, 'a')), '-o', join(home().dir, 'a.out.csv')]);
      expect(first.code, first.stderr).toBe(0);
      expect(sandbox.stats().addressesCharged).toBe(40);

      const second = await home().run(['clean', file('b.csv', list(40, 'b')), '-o', join(home().dir, 'b.out.csv')]);
      expect(second.code, second.stderr).toBe(3);
      expect(sandbox.stats().addressesCharged).toBe(50);
      const statuses = readFileSync(join(home().dir, 'b.out.csv'), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',')[1]);
      expect(statuses.filter((s) => s === 'valid')).toHaveLength(10);
      expect(statuses.filter((s) => s === 'unchecked')).toHaveLength(30);
      // Both sandboxes name the renewal date at sign-in (the alt one not in its refusals): the run knew it.
      const renews = '; renews \\d{4}-\\d{2}-01';
      const when = 'on \\d{4}-\\d{2}-01';
      expect(second.stderr).toMatch(
        new RegExp(`^partial: 30 rows unchecked: the monthly allowance is used up \\(0 left${renews}\\)\\.$`, 'm'),
      );
      expect(second.stderr).toMatch(
        new RegExp(
          `^hint: a larger plan raises the monthly allowance \\(after an upgrade, --resume goes on at once\\); --local checks the rest now with the built-in engine; or run the same command with --resume after the allowance renews \\(${when}\\): nothing is paid twice\\.$`,
          'm',
        ),
      );
      // Known to have 10 left, the run sends 10 in one request: no refusal spends a request on nothing.
      expect(second.stderr).toMatch(/spent 10 addresses in 1 request[;.]/);
      expect(sandbox.stats().allowanceRefused).toBe(0);

      // What the refusal said is shown next to what a run would need.
      const dry = await home().run(['clean', file('c.csv', list(5, 'c')), '--dry-run']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toMatch(/^Allowance needed\s+5$/m);
      expect(dry.stdout).toMatch(
        /^Allowance left\s+0 left as of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(5 would stay unchecked unless the service now allows more \(a run asks it first\)\)$/m,
      );
      const json = await home().run([
        'clean',
        join(home().dir, 'c.csv'),
        '--dry-run',
        '--json',
        'allowanceNeeded,allowanceLeft',
      ]);
      expect(JSON.parse(json.stdout)).toEqual({ allowanceNeeded: 5, allowanceLeft: 0 });
    });

    it('used up on free, upgraded on the service: --resume asks with one address, finishes and pays only the rest', async () => {
      const sandbox = await signedIn(free, 'upgrade@example.com');
      const input = file('u.csv', list(120, 'u'));
      const out = join(home().dir, 'u.out.csv');
      expect((await home().run(['clean', input, '-o', out])).code).toBe(3);
      expect(sandbox.stats().addressesCharged).toBe(50);
      const known = await home().run(['allowance', '--json', 'left,source']);
      expect(JSON.parse(known.stdout)).toEqual({ left: 0, source: 'refusal' });

      await sandbox.setPlan('upgrade@example.com', 'pro');
      const requests = sandbox.stats().cleanRequests;
      const resumed = await home().run(['clean', input, '-o', out, '--resume']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toMatch(/; spent 70 addresses in 3 requests\./);
      // One address asked first, then the other 69 in two requests; none refused.
      expect(sandbox.stats().cleanRequests).toBe(requests + 3);
      expect(sandbox.stats().addressesCharged).toBe(120);
      expect(sandbox.stats().allowanceRefused).toBe(0);
      expect(
        outputRows(out)
          .slice(1)
          .every((r) => r[1] === 'valid'),
      ).toBe(true);
      // The count the refusal taught was shown to be old: it is forgotten, and the service decides.
      const after = await home().run(['allowance', '--json', 'left,source']);
      expect(JSON.parse(after.stdout)).toEqual({ left: null, source: null });
    });

    it('login forgets what a refusal taught: the next run asks the service as if nothing were known', async () => {
      const sandbox = await signedIn(free, 'relogin@example.com');
      expect(
        (await home().run(['clean', file('r.csv', list(60, 'r')), '-o', join(home().dir, 'r.out.csv')])).code,
      ).toBe(3);
      expect(JSON.parse((await home().run(['allowance', '--json', 'left'])).stdout)).toEqual({ left: 0 });
      await sandbox.setPlan('relogin@example.com', 'pro');
      const login = await home().run(['login', '--service', 'clean', '--password-stdin'], { stdin: PASSWORD });
      expect(login.code, login.stderr).toBe(0);
      const left = JSON.parse((await home().run(['allowance', '--json', 'left,source'])).stdout);
      // A sign-in that names what is left replaces the refusal's news; one that does not forgets it.
      expect(left.source === 'signin' ? left.left > 0 : left.left === null).toBe(true);
    });

    it('after the allowance runs out, --local keeps the answers paid for and checks only the rest', async () => {
      const sandbox = await signedIn(free);
      // The sandbox answers example.com addresses valid; the engine, asking this DNS server, finds no such domain,
      // told after the list is read: the engine then passes over the journal's answers as it checks.
      const dns = await startDnsServer({
        com: { NS: ['ns.example.'] },
        'example.com': { rcode: 'NXDOMAIN', delayMs: 300 },
      });
      try {
        const input = file('l.csv', list(70, 'l'));
        const out = join(home().dir, 'l.out.csv');
        const partial = await home().run(['clean', input, '-o', out]);
        expect(partial.code, partial.stderr).toBe(3);
        expect(partial.stderr).toMatch(/--local checks the rest now/);

        const dry = await home().run(['clean', input, '--local', '--dry-run']);
        expect(dry.stdout).toMatch(/^Already checked +50$/m);
        expect(dry.stdout).toMatch(
          /^Checked by +the built-in engine, in-process: 20 addresses; nothing sent, no allowance spent$/m,
        );
        const local = await home().run([
          'clean',
          input,
          '-o',
          out,
          '--local',
          '--dns-server',
          dns.server,
          '--summary-json',
          join(home().dir, 's.json'),
        ]);
        expect(local.code, local.stderr).toBe(0);
        expect(local.stderr).toMatch(
          /^Keeping 50 answers the service gave \(50 from an earlier run of this list\); checking the other 20 with the built-in engine\.$/m,
        );
        const rows = outputRows(out).slice(1);
        expect(rows.slice(0, 50).map((r) => r[1])).toEqual(Array(50).fill('valid'));
        expect(rows.slice(50).map((r) => `${r[1]} ${r[5]}`)).toEqual(Array(20).fill('invalid no_domain'));
        expect(JSON.parse(readFileSync(join(home().dir, 's.json'), 'utf8'))).toMatchObject({
          checker: 'local',
          answered: { fromJournal: 50, fromCache: 0, sent: 20 },
        });
        expect(sandbox.stats().addressesCharged).toBe(50);

        // The engine's verdicts are not the service's: a --resume with the service still asks about those 20.
        const journaled = await home().run(['clean', input, '--dry-run', '--json', 'alreadyChecked,toSend']);
        expect(JSON.parse(journaled.stdout)).toEqual({ alreadyChecked: 50, toSend: 20 });
        // Another list sharing those addresses finds the paid answers in the cache.
        const other = await home().run([
          'clean',
          file('m.csv', list(60, 'l')),
          '--local',
          '--dns-server',
          dns.server,
          '--format',
          'ndjson',
        ]);
        expect(other.code, other.stderr).toBe(0);
        expect(other.stderr).toMatch(
          /^Keeping 50 answers the service gave \(50 from the cache\); checking the other 10 with the built-in engine\.$/m,
        );
        const dryJson = await home().run([
          'clean',
          file('n.csv', list(30, 'l')),
          '--local',
          '--dry-run',
          '--json',
          'checker,alreadyChecked,answeredFromCache,toSend',
        ]);
        expect(JSON.parse(dryJson.stdout)).toEqual({
          checker: 'local',
          alreadyChecked: 0,
          answeredFromCache: 30,
          toSend: 0,
        });
        const answered = await home().run([
          'clean',
          join(home().dir, 'n.csv'),
          '--local',
          '--dns-server',
          dns.server,
          '--format',
          'ndjson',
        ]);
        expect(answered.stderr).toMatch(
          /^Keeping 30 answers the service gave \(30 from the cache\); nothing is left for the built-in engine\.$/m,
        );
      } finally {
        await dns.close();
      }
    });

    it('--local stopped by Ctrl-C counts only the answers paid for, not what the engine had decided', async () => {
      await signedIn(free);
      // fast.com does not exist (answered at once); slow.com is never answered, so the run is still checking.
      const dns = await startDnsServer({ com: { NS: ['ns.example.'] }, 'slow.com': { silent: true } });
      try {
        expect(
          (await home().run(['clean', file('p.csv', list(50, 'p')), '-o', join(home().dir, 'p.out.csv')])).code,
        ).toBe(0);
        const mixed = file(
          'q.csv',
          `${list(50, 'p')}${Array.from({ length: 10 }, (_, i) => `f${i}@fast.com`).join('\n')}\ns0@slow.com\n`,
        );
        const summaryFile = join(home().dir, 'q.json');
        const running = home().run([
          'clean',
          mixed,
          '-o',
          join(home().dir, 'q.out.csv'),
          '--local',
          '--dns-server',
          dns.server,
          '--summary-json',
          summaryFile,
        ]);
        // The cache read first (a stop during it would end it with fewer answers), and the engine asking about slow.com.
        const deadline = Date.now() + 20_000;
        const checking = () =>
          home().stderrSoFar().includes('Keeping 50 answers') && dns.queries.some((q) => q.name === 'slow.com');
        while (!checking() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        // By now fast.com's answer is in and its ten addresses are decided; slow.com's one is waiting.
        await new Promise((r) => setTimeout(r, 300));
        home().signal('SIGINT');
        const res = await running;
        expect(res.code, res.stderr).toBe(130);
        const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
        expect(summary).toMatchObject({
          checker: 'local',
          answered: { fromCache: 50 },
          unchecked: { rows: 11, reason: 'interrupted' },
        });
        expect(summary.statuses).toEqual({ valid: 50, unchecked: 11 });
      } finally {
        await dns.close();
      }
    });

    it('the signin answer tells the allowance: --dry-run shows it before anything is spent', async () => {
      const sandbox = await signedIn(free, 'free@example.com');
      await home().run(['clean', file('a.csv', list(20, 'a')), '-o', join(home().dir, 'a.out.csv')]);
      expect((await home().run(['logout', '--service', 'clean'])).code).toBe(0);
      const login = await home().run(
        ['login', '--service', 'clean', '--email', 'free@example.com', '--password-stdin'],
        { stdin: PASSWORD },
      );
      expect(login.code, login.stderr).toBe(0);
      const dry = await home().run(['clean', file('b.csv', list(40, 'b')), '--dry-run']);
      expect(dry.stdout).toMatch(
        /^Allowance left\s+30 left as of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(10 would stay unchecked\)$/m,
      );
      expect(sandbox.stats().addressesCharged).toBe(20);
    });

    it('the same when the service refuses with 402', async () => {
      const sandbox = await signedIn({ shape, plan: 'free', allowanceStatus: 402 });
      await home().run(['clean', file('a.csv', list(45, 'a')), '-o', join(home().dir, 'a.out.csv')]);
      const second = await home().run(['clean', file('b.csv', list(20, 'b')), '-o', join(home().dir, 'b.out.csv')]);
      expect(second.code, second.stderr).toBe(3);
      expect(sandbox.stats().addressesCharged).toBe(50);
    });

    it('on a terminal, declining to resume says what starting over costs and asks before paying again', async () => {
      const sandbox = await signedIn(free);
      const input = file('a.csv', list(60, 'a'));
      const out = join(home().dir, 'a.out.csv');
      const first = await home().run(['clean', input, '-o', out]);
      expect(first.code, first.stderr).toBe(3);
      const declined = await interactive(
        home(),
        ['clean', input, '-o', out],
        [
          [/An earlier run of this list saved 50 answers; 10 addresses are still to check\.\n.*Resume it\?/, 'n'],
          [/Starting over sends all 60 addresses again: 50 of them are paid a second time\.\n.*Start over\?/, 'n'],
        ],
      );
      expect(declined.code, declined.stderr).toBe(0);
      expect(declined.stderr).toMatch(/Nothing was sent\./);
      expect(sandbox.stats().addressesCharged).toBe(50);
    });
  },
);

describe('clean: faults', () => {
  it('with 5xx, resets and truncated bodies injected, every row is decided as in a fault-free run', async () => {
    const lines = `${addresses(400)}x@mailinator.com,disposable\nbad@@x,bad\n`;
    // Each run has its own home(), so the second cannot reuse the first one's answers.
    const decided = async (options: SandboxOptions) => {
      const own = new TestHome();
      try {
        const sandbox = await sandboxes.start({ plan: 'unlimited', ...options });
        await registered(own, sandbox);
        const input = join(own.dir, 'list.csv');
        writeFileSync(input, lines);
        const out = join(own.dir, 'out.csv');
        const res = await own.run(['clean', input, '-o', out, '--concurrency', '4']);
        expect(res.code, res.stderr).toBe(0);
        const all = outputRows(out);
        const at = all[0]!.indexOf('email_checked_at');
        const rows = all.map((r) => r.filter((_, i) => i !== at));
        return { rows, stats: sandbox.stats() };
      } finally {
        own.cleanup();
      }
    };
    const clean = await decided({});
    const faulty = await decided({ faults: { serverErrorRate: 0.1, resetRate: 0.05, truncateRate: 0.05, seed: 42 } });
    expect(faulty.rows).toEqual(clean.rows);
    expect(faulty.stats.faults.serverError + faulty.stats.faults.reset + faulty.stats.faults.truncated).toBeGreaterThan(
      0,
    );
  });
});

describe('clean: the journal', () => {
  function journalFile(): string {
    const dir = join(home().dataDir, 'journals');
    const [name] = readdirSync(dir).filter((f) => f.endsWith('.ndjson'));
    return join(dir, name!);
  }

  it('a lock left by a dead run does not block the next', async () => {
    await signedIn({ rate: { requests: 4, windowMs: 1_000 } });
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, list(10, 'j'));
    expect((await home().run(['clean', input, '-o', join(home().dir, 'out.csv')])).code).toBe(0);
    writeFileSync(`${journalFile()}.lock`, '2147483646\n');
    const again = await home().run(['clean', input, '-o', join(home().dir, 'out.csv'), '--restart']);
    expect(again.code, again.stderr).toBe(0);
  });

  it('lines of the wrong shape or garbage are skipped with one warning; the rest is reused', async () => {
    const sandbox = await signedIn({ rate: { requests: 4, windowMs: 1_000 } });
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, list(120, 'j'));
    const first = await home().run(['clean', input, '-o', join(home().dir, 'first.csv')]);
    expect(first.code, first.stderr).toBe(0);
    const file = journalFile();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    // The first batch's line is damaged; two more lines of nonsense are added.
    writeFileSync(
      file,
      [`${lines[0]!.slice(0, 40)}garbage`, ...lines.slice(1), '{"r":[null]}', '{"r":"x"}', ''].join('\n'),
    );
    appendFileSync(file, '{"r":[{"key":"torn');

    const out = join(home().dir, 'out.csv');
    // The cache would answer the skipped lines' addresses: off, so the journal alone is tested.
    const res = await home().run(['clean', input, '-o', out, '--resume', '--max-age', '0']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(
      new RegExp(
        `^warning: 3 lines of ${file} could not be read and were skipped: those addresses are checked again \\(--restart discards the journal\\)$`,
        'm',
      ),
    );
    expect(sandbox.stats().addressesCharged).toBe(120 + 50);
    expect(readFileSync(out, 'utf8')).not.toContain('unchecked');
  });
});

// When the rate limiter's state cannot be written, the run ends with a clear error instead of spinning forever;
// a lock left by a dead or confused run does not block.
describe('clean: the rate limiter state on disk', () => {
  let sandbox: SandboxHandle;
  let input: string;
  beforeEach(async () => {
    sandbox = await signedIn();
    input = join(home().dir, 'list.csv');
    writeFileSync(input, list(120, 'p'));
  });

  /** Files the limiter would leave behind if it failed untidily. */
  function leftovers(dir: string): string[] {
    return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock')) : [];
  }

  /** The directory of the limiter state the account uses, made to exist so tests can put something in its way. */
  function stateDir(): string {
    const dir = join(home().dataDir, 'limiter');
    mkdirSync(dir, { recursive: true });
    // One run creates the state file; its name is the account's key.
    return dir;
  }

  it('a directory where the state file should be: exit 1 naming the path, outputs written, journal intact', async () => {
    const first = await home().run(['clean', input, '-o', join(home().dir, 'first.csv'), '--max-spend', '50']);
    expect(first.code, first.stderr).toBe(3);
    const dir = stateDir();
    const [state] = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(state).toBeDefined();
    const path = join(dir, state!);
    execFileSync('rm', ['-f', path]);
    mkdirSync(path);

    const out = join(home().dir, 'out.csv');
    const res = await home().run(['clean', input, '-o', out, '--resume']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      new RegExp(`^error: cannot keep the rate limiter's state in ${path}: a directory is in the way$`, 'm'),
    );
    expect(res.stderr).toMatch(/^hint: free space in the data directory/m);
    const rows = readFileSync(out, 'utf8').trim().split('\n');
    expect(rows).toHaveLength(121);
    expect(rows.filter((r) => r.includes(',valid,'))).toHaveLength(50);
    expect(leftovers(dir)).toEqual([]);
    expect(sandbox.stats().addressesCharged).toBe(50);
  });

  it('a lock file dated in the future, or left by a dead process, is taken over', async () => {
    const first = await home().run(['clean', input, '-o', join(home().dir, 'first.csv'), '--max-spend', '50']);
    expect(first.code, first.stderr).toBe(3);
    const dir = stateDir();
    const [state] = readdirSync(dir).filter((f) => f.endsWith('.json'));
    const lock = join(dir, `${state}.lock`);
    writeFileSync(lock, `${process.pid}\n`);
    const future = new Date(Date.now() + 3_600_000);
    utimesSync(lock, future, future);
    const res = await home().run(['clean', input, '-o', join(home().dir, 'out.csv'), '--resume']);
    expect(res.code, res.stderr).toBe(0);

    writeFileSync(lock, '2147483646\n'); // no such process
    const again = await home().run(['clean', input, '-o', join(home().dir, 'out2.csv'), '--restart']);
    expect(again.code, again.stderr).toBe(0);
    expect(leftovers(dir)).toEqual([]);
  });

  it('a full disk under the limiter state: exit 1 saying so (needs root to mount a tmpfs)', async (ctx) => {
    const dir = stateDir();
    await onSmallDisk(ctx, dir, async () => {
      try {
        execFileSync('dd', ['if=/dev/zero', `of=${join(dir, 'filler')}`, 'bs=4k', 'count=100'], { stdio: 'ignore' });
      } catch {
        /* dd stops when the disk is full: that is the point */
      }
      const out = join(home().dir, 'out.csv');
      const res = await home().run(['clean', input, '-o', out]);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/cannot keep the rate limiter's state in .*: the disk is full/);
      expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(121);
      expect(leftovers(dir)).toEqual([]);
    });
  });
});
