// `clean --local` (src/commands/clean/with-engine.ts): the built-in engine in-process, against a DNS server on 127.0.0.1 serving our own zones.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestHome } from '../../helpers/cli.js';
import { FakeClock } from '../../helpers/clock.js';
import { closedUdpPort, startDnsServer, type TestDnsServer } from '../../helpers/dns-server.js';

describe('clean --local', () => {
  let dns: TestDnsServer;
  let home: TestHome;
  beforeAll(async () => {
    dns = await startDnsServer({
      com: { NS: ['ns.example.'] }, // the canary: the resolver knows com exists
      'mail.example.com': { MX: [{ preference: 10, exchange: 'mx.mail.example.com' }] },
      'mx.mail.example.com': { A: ['127.0.0.1'] },
      'web-only.com': { A: ['127.0.0.1'] },
      'nomail.com': { MX: [{ preference: 0, exchange: '.' }] },
      'gmail.com': { MX: [{ preference: 5, exchange: 'mx.gmail.com' }] },
      'flaky.com': { rcode: 'SERVFAIL' },
      'mailinator.com': { MX: [{ preference: 10, exchange: 'mx.mailinator.com' }] },
    });
    home = new TestHome();
  });
  afterAll(async () => {
    await dns.close();
    home.cleanup();
  });

  it('decides from DNS, looks each domain up once, spends nothing and needs no account', async () => {
    const input = join(home.dir, 'list.csv');
    writeFileSync(
      input,
      `${[
        'email,name',
        'ann@mail.example.com,Ann',
        'bob@mail.example.com,Bob',
        'ANN@Mail.Example.com,Ann again',
        'cy@web-only.com,Cy',
        'di@nomail.com,Di',
        'ed@no-such-domain.com,Ed',
        'fay@gmial.com,Fay',
        'gus@flaky.com,Gus',
        'admin@mail.example.com,Role',
        'x@mailinator.com,Disposable',
        'broken@,Bad',
      ].join('\n')}\n`,
    );
    const out = join(home.dir, 'out.json');
    const res = await home.run(['clean', input, '--local', '--dns-server', dns.server, '-o', out, '--format', 'json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).not.toContain('sandbox');
    const rows = JSON.parse(readFileSync(out, 'utf8')) as Array<Record<string, unknown>>;
    const by = (name: string) => rows.find((r) => r.name === name)!;
    expect(by('Ann')).toMatchObject({ email_status: 'valid', email_valid_domain: true, email_reason: null });
    expect(by('Cy')).toMatchObject({ email_status: 'valid' }); // no MX, but an A record (RFC 5321 5.1)
    expect(by('Di')).toMatchObject({ email_status: 'invalid', email_reason: 'null_mx' });
    expect(by('Ed')).toMatchObject({ email_status: 'invalid', email_reason: 'no_domain' });
    expect(by('Fay')).toMatchObject({ email_suggestion: 'fay@gmail.com' });
    expect(by('Gus')).toMatchObject({ email_status: 'unknown', email_reason: 'dns_unavailable' });
    expect(by('Role')).toMatchObject({ email_status: 'risky', email_reason: 'role' });
    expect(by('Disposable')).toMatchObject({ email_status: 'risky', email_disposable: true });
    expect(by('Bad')).toMatchObject({ email_status: 'invalid', email_reason: 'syntax' });
    // Each distinct domain was asked about once (MX, then A/AAAA only where MX had nothing), but the one whose
    // resolver failed it (SERVFAIL): asked again after a wait, four times in all, before it is unknown.
    const mxQuestions = dns.queries.filter((q) => q.type === 'MX').map((q) => q.name.toLowerCase());
    const answered = mxQuestions.filter((name) => name !== 'flaky.com');
    expect(new Set(answered).size).toBe(answered.length);
    expect(answered).toContain('mail.example.com');
    expect(mxQuestions.filter((name) => name === 'flaky.com')).toHaveLength(4);
  });

  it("dates each verdict by the run's clock, not the machine's", async () => {
    const input = join(home.dir, 'dated.csv');
    writeFileSync(input, 'email\nann@mail.example.com\nbob@nomail.com\n');
    const out = join(home.dir, 'dated.json');
    const machineClock = home.clock;
    home.clock = new FakeClock(Date.parse('2031-05-01T10:00:00.000Z'));
    try {
      const res = await home.run([
        'clean',
        input,
        '--local',
        '--dns-server',
        dns.server,
        '-o',
        out,
        '--format',
        'json',
      ]);
      expect(res.code, res.stderr).toBe(0);
    } finally {
      home.clock = machineClock;
    }
    const rows = JSON.parse(readFileSync(out, 'utf8')) as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.email_checked_at)).toEqual(['2031-05-01T10:00:00.000Z', '2031-05-01T10:00:00.000Z']);
  });

  it('offline: domain checks are unknown (dns_unavailable), said once, and never make an address invalid', async () => {
    const input = join(home.dir, 'offline.csv');
    const emails = Array.from({ length: 40 }, (_, i) => `user${i}@domain${i % 10}.com`);
    writeFileSync(input, `email\n${emails.join('\n')}\nnot-an-address\n`);
    const port = await closedUdpPort();
    const res = await home.run(['clean', input, '--local', '--dns-server', `127.0.0.1:${port}`, '--format', 'ndjson']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr.match(/warning: DNS is unreachable/g)).toHaveLength(1);
    const rows = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const domainRows = rows.filter((r) => r.email !== 'not-an-address');
    expect(domainRows.every((r) => r.email_status === 'unknown' && r.email_reason === 'dns_unavailable')).toBe(true);
    expect(rows.filter((r) => r.email_status === 'invalid').map((r) => r.email)).toEqual(['not-an-address']);
  });

  it('offline: reserved TLDs (.test, .invalid) are still judged without DNS; the resolver is asked one question', async () => {
    const input = join(home.dir, 'reserved.csv');
    writeFileSync(input, 'email\nann@site.test\nbob@site.invalid\ncy@example.org\n');
    const denying = await startDnsServer((name) => (name === 'com' ? { rcode: 'NXDOMAIN' } : undefined));
    try {
      const res = await home.run(['clean', input, '--local', '--dns-server', denying.server, '--format', 'ndjson']);
      expect(res.code, res.stderr).toBe(0);
      const rows = res.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(rows.map((r) => [r.email, r.email_status, r.email_reason])).toEqual([
        ['ann@site.test', 'invalid', 'reserved_domain'],
        ['bob@site.invalid', 'invalid', 'reserved_domain'],
        ['cy@example.org', 'unknown', 'dns_unavailable'],
      ]);
      expect(denying.queries).toEqual([{ name: 'com', type: 'NS' }]);
    } finally {
      await denying.close();
    }
  });

  it('Ctrl-C while DNS is silent: lookups in flight are abandoned, exit 130, no warning about DNS', async () => {
    const input = join(home.dir, 'silent.csv');
    writeFileSync(input, `email\n${Array.from({ length: 200 }, (_, i) => `u${i}@d${i}.com`).join('\n')}\n`);
    const silent = await startDnsServer(() => ({ silent: true }));
    try {
      const running = home.run(['clean', input, '--local', '--dns-server', silent.server, '--format', 'ndjson']);
      while (silent.queries.length === 0) await new Promise((r) => setTimeout(r, 10));
      home.signal('SIGINT');
      const res = await running;
      expect(res.code).toBe(130);
      expect(res.stderr).toContain('Interrupted: nothing was spent');
      expect(res.stderr).not.toContain('DNS is unreachable');
      expect(res.stdout).toBe('');
    } finally {
      await silent.close();
    }
  });

  it('a malformed DNS server is a usage error naming where it came from, before anything is read', async () => {
    const input = join(home.dir, 'offline.csv');
    for (const [server, why] of [
      ['bogus::x', /not an IP address/],
      ['127.0.0.1:99999', /port/],
      ['127.0.0.1:0', /port/],
      ['localhost', /not an IP address/],
      ['[::1]:5x', /port/],
      [',', /no server/],
    ] as const) {
      const res = await home.run(['clean', input, '--local', '--dns-server', server]);
      expect(res.code, server).toBe(2);
      expect(res.stderr, server).toMatch(/^error: --dns-server: /);
      expect(res.stderr, server).toMatch(why);
      expect(res.stderr, server).not.toMatch(/unexpected|rows,/);
    }
    const fromEnv = await home.run(['clean', input, '--local'], {
      env: { MAILCLEAN_DNS_SERVERS: `${dns.server},bogus::x` },
    });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toMatch(/^error: MAILCLEAN_DNS_SERVERS: "bogus::x" is not an IP address/);
  });

  it('takes IPv4, IPv4:PORT, IPv6 and [IPv6]:PORT servers', async () => {
    const input = join(home.dir, 'servers.csv');
    writeFileSync(input, 'email\nann@mail.example.com\n');
    // The first server answers; the IPv6 ones are only parsed (c-ares asks them if the first fails).
    const res = await home.run([
      'clean',
      input,
      '--local',
      '--dns-server',
      ` ${dns.server} , ::1,[::1]:5353, 2001:db8::53 `,
      '--format',
      'ndjson',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ email_status: 'valid', email_valid_domain: true });
  });

  it("refuses to write when the input changed between reading it and writing it (rows would get other rows' verdicts)", async () => {
    const input = join(home.dir, 'changing.csv');
    writeFileSync(input, 'email\nann@changes.com\nbob@mail.example.com\n');
    const changer = await startDnsServer((name) => {
      // Asked while the engine checks: the scan is over, the write pass not begun.
      if (name.toLowerCase() === 'changes.com')
        writeFileSync(input, 'email\nbob@mail.example.com\nann@changes.com\ncy@other.com\n');
      return name === 'com' ? { NS: ['ns.example.'] } : { MX: [{ preference: 10, exchange: 'mx.example.net' }] };
    });
    try {
      const out = join(home.dir, 'changing-out.csv');
      const res = await home.run(['clean', input, '--local', '--dns-server', changer.server, '-o', out]);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(`${input} changed while it was being cleaned; nothing was written`);
      expect(existsSync(out)).toBe(false);
    } finally {
      await changer.close();
    }
  });

  it('a slow resolver with domains that never answer: those rows unknown, the others as DNS says', async () => {
    const input = join(home.dir, 'slow.csv');
    const domains = Array.from({ length: 60 }, (_, i) => `d${i}.slow.com`);
    writeFileSync(input, `email\n${domains.flatMap((d) => [`ann@${d}`, `bob@${d}`]).join('\n')}\n`);
    const silent = (name: string) => /^d\d*7\.slow\.com$/.test(name);
    const slow = await startDnsServer((name) => {
      if (!name.endsWith('.slow.com')) return undefined;
      return silent(name) ? { silent: true } : { MX: [{ preference: 10, exchange: `mx.${name}` }], delayMs: 30 };
    });
    try {
      const res = await home.run(['clean', input, '--local', '--dns-server', slow.server, '--format', 'ndjson']);
      expect(res.code, res.stderr).toBe(0);
      const rows = res.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, string>);
      expect(rows.map((r) => [r.email, r.email_status])).toEqual(
        rows.map((r) => [r.email, silent(r.email!.split('@')[1]!) ? 'unknown' : 'valid']),
      );
      expect(rows.filter((r) => r.email_status === 'unknown')).toHaveLength(12);
      expect(res.stderr).toContain('warning: DNS gave no answer for some domains (ETIMEOUT)');
      expect(res.stderr).not.toContain('unreachable');
    } finally {
      await slow.close();
    }
  });

  it('--dns-concurrency and --dns-timeout fix what is otherwise learned: one domain at a time', async () => {
    const input = join(home.dir, 'one-at-a-time.csv');
    writeFileSync(input, `email\n${Array.from({ length: 20 }, (_, i) => `ann@d${i}.one.com`).join('\n')}\n`);
    const one = await startDnsServer((name) =>
      name.endsWith('.one.com') ? { MX: [{ preference: 10, exchange: `mx.${name}` }], delayMs: 5 } : undefined,
    );
    try {
      const flags = ['--dns-server', one.server, '--dns-concurrency', '1', '--dns-timeout', '2s'];
      const res = await home.run(['clean', input, '--local', ...flags, '--format', 'ndjson']);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout.match(/"email_status":"valid"/g)).toHaveLength(20);
      expect(one.maxInFlight).toBe(1);
    } finally {
      await one.close();
    }
  });

  it('a bad --dns-concurrency or --dns-timeout is one line naming the flag, exit 2, before anything is read', async () => {
    const input = join(home.dir, 'missing-input.csv');
    for (const [flag, value] of [
      ['--dns-concurrency', '0'],
      ['--dns-concurrency', '2.5'],
      ['--dns-concurrency', '5000'],
      ['--dns-timeout', 'soon'],
      ['--dns-timeout', '5'],
      ['--dns-timeout', '2m'],
    ] as const) {
      for (const command of [
        ['clean', input, '--local'],
        ['verify', '--local', 'ann@example.com'],
      ]) {
        const res = await home.run([...command, flag, value]);
        expect(res.code, `${flag} ${value}`).toBe(2);
        expect(res.stderr.split('\n')[0], `${flag} ${value}`).toMatch(new RegExp(`^error: ${flag}: "${value}" is not`));
        expect(res.stdout).toBe('');
      }
    }
  });
});
