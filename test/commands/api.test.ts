// `mailclean api`: one raw request with the stored token, against the sandbox in both answer shapes; how fields
// become a query or a body (against a server that echoes what it got); exit codes; and the cleaning service's
// validation routes booked in the account's rate limit and allowance as `clean` books them.
import { writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AllowanceView } from '../../src/commands/allowance.js';
import { expectError, TestHome, useHome } from '../helpers/cli.js';
import { FakeClock } from '../helpers/clock.js';
import { useServers } from '../helpers/http-server.js';
import { PASSWORD, registered, useSandboxes } from '../helpers/sandbox.js';

const CLEAN_ROUTE = '/api/v1/email-verify/validate/clean';

async function allowance(home: TestHome): Promise<AllowanceView> {
  const res = await home.run(['allowance', '--json']);
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as AllowanceView;
}

describe.each(['spec', 'alt'] as const)('api against the sandbox (%s shape)', (shape) => {
  const home = useHome();
  const sandboxes = useSandboxes();

  it('prints the body as received when piped, pretty on a terminal; fields reach the service', async () => {
    const sandbox = await sandboxes.start({ shape });
    await registered(home(), sandbox, { service: 'all', email: 'ada@example.com' });
    const piped = await home().run(['api', '/api/me']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).not.toContain('\n');
    expect(JSON.parse(piped.stdout).response.me.data.email).toBe('ada@example.com');

    const update = ['-f', 'first_name=Ada', '-f', 'last_name=Lovelace', '-f', 'phone=1', '-f', 'country_code=GB'];
    const posted = await home().run(['api', '/api/me', ...update]);
    expect(posted.code, posted.stderr).toBe(0);
    const tty = await home().run(['api', 'api/me'], { tty: true });
    expect(tty.stdout).toMatch(/^{\n {2}"version": "v1",\n/);
    expect(JSON.parse(tty.stdout).response.me.data).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });

    // A GET's fields go in the query: a brand the user does not own is refused (404 or 403, by shape), exit 1.
    const foreign = await home().run(['api', '-X', 'GET', '/api/me', '-f', 'current_buuid=not-mine']);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/^error: the platform at 127\.0\.0\.1:\d+ answered 40[34] to GET \/api\/me: /m);
    expect(JSON.parse(foreign.stdout).status).toBe(false);
  });

  it('--include prints the status line and headers before the body', async () => {
    const sandbox = await sandboxes.start({ shape });
    await registered(home(), sandbox, { service: 'platform' });
    const res = await home().run(['api', '/api/me', '--include']);
    expect(res.code, res.stderr).toBe(0);
    const [head, body] = res.stdout.split('\n\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\n/);
    expect(head).toMatch(/^content-type: application\/json/m);
    expect(JSON.parse(body!).status).toBe(true);
  });

  it('exit codes: 4 for a refused token, 1 for a 404, 2 for a 422; the body is printed too', async () => {
    const sandbox = await sandboxes.start({ shape });
    await registered(home(), sandbox, { service: 'all' });
    const refused = await home().run(['api', '/api/me'], { env: { MAILCLEAN_TOKEN: 'not-a-token-at-all' } });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/^error: the platform at .* refused the credentials/m);
    expect(refused.stdout).toMatch(/Unauthenticated/);
    const clean = await home().run(['api', '--service', 'clean', CLEAN_ROUTE, '-f', 'email[]=a@example.com'], {
      env: { MAILCLEAN_CLEAN_TOKEN: 'not-a-token-at-all' },
    });
    expect(clean.code).toBe(4);
    expect(clean.stderr).toContain('hint: run `mailclean login --service clean`');

    expect((await home().run(['api', '/api/nothing-here'])).code).toBe(1);
    const rejected = await home().run(['api', '-X', 'post', '/api/me', '-f', 'first_name=Ada']);
    expect(rejected.code, rejected.stderr).toBe(2);
    expect(rejected.stderr).toMatch(/^error: the platform rejected the request: /m);
  });

  it('a POST to the clean route spends from the allowance as clean; what is known to be left is a hint the service corrects', async () => {
    // One mid-month clock for both machines and the service: the month's allowance does not turn under the test.
    const clock = new FakeClock(Date.parse('2026-11-10T12:00:00Z'));
    home().clock = clock;
    const sandbox = await sandboxes.start({ shape, plan: 'free', now: clock.now, tokenTtlMs: 365 * 86_400_000 });
    await registered(home(), sandbox, { service: 'all', email: 'ada@example.com' });
    const send = (on: TestHome, n: number) => {
      const body = join(on.dir, `body-${n}.json`);
      writeFileSync(body, JSON.stringify({ email: Array.from({ length: n }, (_, i) => `u${n}-${i}@example.com`) }));
      return on.run(['api', '--service', 'clean', CLEAN_ROUTE, '--input', body]);
    };
    const res = await home().run([
      'api',
      '--service',
      'clean',
      CLEAN_ROUTE,
      '-f',
      'email[]=a@x.com',
      '-f',
      'email[]=b@y.org',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).result).toHaveLength(2);
    expect(sandbox.stats().addressesCharged).toBe(2);
    expect(await allowance(home())).toMatchObject({ left: 48, source: 'run', spentThisMachine: 2 });

    // Another machine of the account spends meanwhile; the service's refusal leaves 0 known here.
    const other = new TestHome();
    other.clock = clock;
    try {
      const login = await other.run(
        ['--clean-url', sandbox.url, 'login', '--service', 'clean', '--email', 'ada@example.com', '--password-stdin'],
        { stdin: PASSWORD },
      );
      expect(login.code, login.stderr).toBe(0);
      expect((await send(other, 45)).code).toBe(0);
    } finally {
      other.cleanup();
    }
    const refused = await send(home(), 10);
    expect(refused.code).toBe(1);
    expect(sandbox.stats().addressesCharged).toBe(47);
    expect(sandbox.stats().allowanceRefused).toBe(1);
    expect(await allowance(home())).toMatchObject({ left: 0, source: 'refusal', spentThisMachine: 2 });
    // Three were left for a smaller request: it is sent, answered and paid, and the count known here is forgotten.
    const one = await send(home(), 1);
    expect(one.code, one.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(48);
    const after = await allowance(home());
    expect(after.left).toBeNull();
    expect(after.spentThisMachine).toBe(3);
  });

  it('the answers a POST to the clean route paid for go into the verdict cache: verify and clean pay nothing again', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    await registered(home(), sandbox, { service: 'clean' });
    const res = await home().run([
      'api',
      '--service',
      'clean',
      CLEAN_ROUTE,
      '-f',
      'email[]=Ada.Lovelace@Example.com',
      '-f',
      'email[]=bob@example.org',
    ]);
    expect(res.code, res.stderr).toBe(0);
    const paid = sandbox.stats().addressesCharged;
    expect(paid).toBe(2);
    const verified = await home().run([
      'verify',
      'ada.lovelace@example.com',
      'bob@example.org',
      '--json',
      'address,status',
    ]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toEqual([
      { address: 'ada.lovelace@example.com', status: 'valid' },
      { address: 'bob@example.org', status: 'valid' },
    ]);
    const list = join(home().dir, 'list.csv');
    writeFileSync(list, 'email\nbob@example.org\nADA.LOVELACE@example.com\n');
    const cleaned = await home().run(['clean', list, '-o', join(home().dir, 'out.csv')]);
    expect(cleaned.code, cleaned.stderr).toBe(0);
    expect(cleaned.stderr).toMatch(/^2 addresses answered within 30 days come from the cache/m);
    expect(sandbox.stats().addressesCharged).toBe(paid);
    const spent = JSON.parse((await home().run(['allowance', '--json', 'spentThisMachine'])).stdout);
    expect(spent).toEqual({ spentThisMachine: 2 });
  });

  it("takes a slot of the account's rate limit, however the route is spelled, and waits for one as clean does", async () => {
    const sandbox = await sandboxes.start({ shape });
    await registered(home(), sandbox, { service: 'clean' });
    expect((await home().run(['config', 'set', 'rate', '1/1h'])).code).toBe(0);
    expect((await home().run(['verify', 'ann@example.com'])).code).toBe(0);
    const requests = sandbox.stats().cleanRequests;
    const disguised = '/API/v1//email-verify/./validate/%63lean';
    const running = home().run(['api', '--service', 'clean', disguised, '-f', 'email[]=bob@example.com']);
    const deadline = Date.now() + 10_000;
    while (!home().stderrSoFar().includes('for a slot of the rate limit') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    home().signal('SIGINT');
    const stopped = await running;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toMatch(/^Waiting (59m \d+s|1h 0m) for a slot of the rate limit \(shared with `clean`\)…$/m);
    expect(sandbox.stats().cleanRequests).toBe(requests);

    const asPlatform = await home().run(['api', '--service', 'platform', CLEAN_ROUTE, '-f', 'email[]=bob@example.com']);
    expectError(asPlatform, 2, `error: ${CLEAN_ROUTE} is a route of the cleaning service`);
  });
});

describe('api: the request it sends', () => {
  const home = useHome();
  const serve = useServers();
  const seen: Array<{ method?: string; url?: string; body: string; authorization?: string }> = [];
  const echo = () =>
    serve((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, body, authorization: req.headers.authorization });
        res.setHeader('content-type', 'application/json');
        res.setHeader('set-cookie', 'session=abcdef123456; HttpOnly');
        res.setHeader('x-echoed', `${req.headers.authorization}`);
        res.end(JSON.stringify({ ok: true }));
      });
    });
  const TOKEN = 'platform-token-0123456789';
  const run = async (url: string, args: string[], stdin?: string) => {
    seen.length = 0;
    const res = await home().run(['--api-url', url, 'api', ...args], { env: { MAILCLEAN_TOKEN: TOKEN }, stdin });
    expect(res.code, res.stderr).toBe(0);
    return seen[0]!;
  };

  it('fields: a query for a GET, else a JSON body (lists, objects, -F types, @file); --input - reads stdin', async () => {
    const server = await echo();
    const posted = await run(server.url, ['/x', '-f', 'a=1', '-f', 'l[]=2', '-f', 'l[]=3', '-f', 'o[k]=v']);
    expect(posted).toMatchObject({ method: 'POST', url: '/x', authorization: `Bearer ${TOKEN}` });
    expect(JSON.parse(posted.body)).toEqual({ a: '1', l: ['2', '3'], o: { k: 'v' } });

    writeFileSync(join(home().dir, 'note.txt'), 'from a file');
    const typed = await run(server.url, ['/x', '-F', 'n=5', '-F', 't=true', '-F', 'z=null', '-F', 'f=@note.txt']);
    expect(JSON.parse(typed.body)).toEqual({ n: 5, t: true, z: null, f: 'from a file' });

    const got = await run(server.url, ['-X', 'GET', '/x?z=0', '-f', 'a=1', '-f', 'l[]=2']);
    expect(got).toMatchObject({ method: 'GET', url: '/x?z=0&a=1&l%5B%5D=2', body: '' });

    const input = await run(server.url, ['/x', '--input', '-', '-f', 'q=1'], '{"x":[1]}');
    expect(input).toMatchObject({ method: 'POST', url: '/x?q=1' });
    expect(JSON.parse(input.body)).toEqual({ x: [1] });
  });

  it('--include masks credentials in the headers: cookies, and any token this run holds', async () => {
    const server = await echo();
    const res = await home().run(['--api-url', server.url, 'api', '/x', '--include'], {
      env: { MAILCLEAN_TOKEN: TOKEN },
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^set-cookie: \[redacted\]$/m);
    expect(res.stdout).toMatch(/^x-echoed: Bearer \[redacted\]$/m);
    expect(res.stdout).not.toContain(TOKEN);
    expect(res.stdout).not.toContain('abcdef123456');
  });

  it('bad flags and inputs: one line, exit 2, nothing sent', async () => {
    const server = await echo();
    writeFileSync(join(home().dir, 'bad.json'), '{"email": [');
    const cases: Array<[string[], RegExp]> = [
      [['/x', '-f', 'novalue'], /^error: -f novalue: expected key=value$/],
      [
        ['https://elsewhere.example/api/me'],
        /^error: https:\/\/elsewhere\.example\/api\/me: give a path on the service/,
      ],
      [['/x', '--input', 'missing.json'], /^error: --input missing\.json: cannot be read \(ENOENT\)$/],
      [['/x', '--input', 'bad.json'], /^error: --input bad\.json: not valid JSON \(/],
      [['/x', '-f', 'a[b=1'], /^error: -f a\[b=…: a key is a name, then \[\] or \[name\] parts$/],
      [['-X', 'FETCH', '/x'], /^error: option '-X, --method <method>' argument 'FETCH' is invalid/],
    ];
    seen.length = 0;
    for (const [args, line] of cases) {
      const res = await home().run(['--api-url', server.url, 'api', ...args], { env: { MAILCLEAN_TOKEN: TOKEN } });
      expectError(res, 2, line);
    }
    expect(seen).toEqual([]);
  });
});
