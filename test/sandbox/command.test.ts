import { describe, expect, it } from 'vitest';
import { useHome } from '../helpers/cli.js';
import { closedPort } from '../helpers/http-server.js';
import { cleanCall, signupClean } from './clean-helpers.js';
import { call, PASSWORD, uniqueEmail } from './helpers.js';

const home = useHome();

/** Signs up a cleaning user once the sandbox starting on `base` answers. */
async function signupWhenUp(base: string): Promise<{ token: string } | undefined> {
  for (let i = 0; i < 200; i++) {
    const up = await signupClean(base).catch(() => undefined);
    if (up) return up;
    await new Promise((r) => setTimeout(r, 25));
  }
  return undefined;
}

describe('mailclean sandbox: clean route options', () => {
  it.each([
    [['--rate', '5'], '--rate'],
    [['--rate', '0/5m'], '--rate'],
    [['--fault-rate', '1.5'], '--fault-rate'],
    [['--fault-rate', 'often'], '--fault-rate'],
    [['--fault-rate', '-0.1'], '--fault-rate'],
    [['--reject-rate', '2'], '--reject-rate'],
    [['--drop-rate', 'some'], '--drop-rate'],
    [
      ['--fault-rate', '0.5', '--reject-rate', '0.3', '--drop-rate', '0.3'],
      '--fault-rate, --reject-rate and --drop-rate add up to more than 1',
    ],
    [['--latency', 'slow'], '--latency'],
    [['--latency', '300-100'], '--latency'],
    [['--latency', '-5'], '--latency'],
    [['--seed', '1.5'], '--seed'],
    [['--seed', '-1'], '--seed'],
    [['--seed', '4294967296'], '--seed'],
    [['--allowance-status', '404'], '--allowance-status'],
    [['--shape', 'laravel'], '--shape'],
  ])('refuses %j with a usage error naming %s', async (args, flag) => {
    const res = await home().run(['sandbox', '--memory', ...args]);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain(flag);
  });

  it('serves the clean route with the given rate, allowance status and seed', async () => {
    const port = await closedPort();
    const running = home().run([
      'sandbox',
      '--memory',
      '--port',
      String(port),
      '--plan',
      'free',
      '--rate',
      '2/1m',
      '--allowance-status',
      '429',
      '--fault-rate',
      '0',
      '--latency',
      '0-5',
      '--seed',
      '7',
    ]);
    const base = `http://127.0.0.1:${port}`;
    const up = await signupWhenUp(base);
    expect(up).toBeDefined();
    const token = up!.token;

    const first = await cleanCall(
      base,
      token,
      Array.from({ length: 50 }, (_, i) => `u${i}@example.com`),
    );
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('2;w=60');
    const refused = await cleanCall(base, token, ['a@example.com']);
    expect(refused.status).toBe(429);
    expect(refused.json.message).toMatch(/^Monthly email cleaning limit reached/);
    expect(refused.headers.get('retry-after')).toBeNull();
    const limited = await cleanCall(base, token, ['a@example.com']);
    expect(limited.status).toBe(429);
    expect(limited.json.message).toBe('Too many requests: 2 per 60 seconds.');
    expect(limited.headers.get('retry-after')).toBe('60');

    home().signal('SIGINT');
    const res = await running;
    expect(res.code, res.stderr).toBe(130);
    expect(res.stderr).toContain('Clean route: rate 2/1m per user, allowance refusals 429, latency 0-5ms, seed 7.');
    expect(res.stderr).not.toContain('warning:');
  });

  it('--json naming an unknown field is refused before the server listens', async () => {
    const port = await closedPort();
    const res = await home().run(['sandbox', '--memory', '--port', String(port), '--json', 'bogus']);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(/^error: unknown JSON field for --json: bogus$/m);
    await expect(signupClean(`http://127.0.0.1:${port}`)).rejects.toThrow();
  });

  it('--host 0.0.0.0 warns that others can reach it; SIGTERM stops it with 143', async () => {
    const port = await closedPort();
    const running = home().run(['sandbox', '--memory', '--host', '0.0.0.0', '--port', String(port)]);
    expect(await signupWhenUp(`http://127.0.0.1:${port}`)).toBeDefined();
    home().signal('SIGTERM');
    const res = await running;
    expect(res.code).toBe(143);
    expect(res.stderr).toMatch(
      /^warning: the sandbox listens on 0\.0\.0\.0, not only on this machine: anyone who can reach it can use its accounts and tokens \(--host 127\.0\.0\.1 keeps it local\)$/m,
    );
  });

  it('--reject-rate and --drop-rate inject 422s and answers missing a record', async () => {
    const port = await closedPort();
    const running = home().run([
      'sandbox',
      '--memory',
      '--port',
      String(port),
      '--plan',
      'unlimited',
      '--reject-rate',
      '1',
      '--seed',
      '3',
    ]);
    const base = `http://127.0.0.1:${port}`;
    const up = await signupWhenUp(base);
    expect(up).toBeDefined();
    const kinds = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const reply = await cleanCall(base, up!.token, ['a@example.com', 'b@example.com']);
      expect(reply.status).toBe(422);
      kinds.add(Object.keys(reply.json.errors).join());
    }
    // Half name an address, half none.
    expect([...kinds].sort()).toEqual(['email', 'email.0', 'email.1']);
    home().signal('SIGINT');
    const res = await running;
    expect(res.code, res.stderr).toBe(130);
    expect(res.stderr).toContain('Clean route: rate 50/5m per user, allowance refusals 403, rejects 1, seed 3.');

    const dropping = home().run([
      'sandbox',
      '--memory',
      '--port',
      String(port),
      '--plan',
      'unlimited',
      '--drop-rate',
      '1',
    ]);
    const again = await signupWhenUp(base);
    const reply = await cleanCall(base, again!.token, ['a@example.com', 'b@example.com']);
    expect(reply.status).toBe(200);
    expect(reply.json.result).toHaveLength(1);
    home().signal('SIGINT');
    expect((await dropping).stderr).toContain('drops 1, seed ');
  });

  it('--shape alt answers in the second reading, and says so', async () => {
    const port = await closedPort();
    const running = home().run(['sandbox', '--memory', '--port', String(port), '--shape', 'alt']);
    const base = `http://127.0.0.1:${port}`;
    let signup;
    for (let i = 0; i < 200 && !signup; i++) {
      signup = await call(base, 'POST', '/api/v1/auth/signup', {
        body: { email: uniqueEmail(), password: PASSWORD },
      }).catch(() => undefined);
      if (!signup) await new Promise((r) => setTimeout(r, 25));
    }
    expect(signup?.status).toBe(201);
    expect(signup?.json.result.accessToken).toEqual(expect.any(String));
    expect((await call(base, 'GET', '/api/me')).json).toEqual({ message: 'Unauthenticated.' });

    home().signal('SIGINT');
    const res = await running;
    expect(res.code, res.stderr).toBe(130);
    expect(res.stderr).toContain('Answer shape: alt.');
    expect(res.stderr).toContain('allowance refusals 403');
  });

  it('--help lists every difference of the alt shape', async () => {
    const res = await home().run(['sandbox', '--help']);
    expect(res.code).toBe(0);
    for (const text of [
      'response: {errors}',
      'result: {errors}',
      '{"message":"Unauthenticated."}',
      'response.access_token',
      'result.accessToken',
      '403 "This action is unauthorized."',
      'empty strings count as missing',
      'monthly allowance refusal: 403',
    ]) {
      expect(res.stdout).toContain(text);
    }
  });
});
