// What is known of the allowance is spent, never more: a run sends at most what is known to be left (the last batch
// shrinks); with nothing left it asks with one address whether that is still so (a plan may have changed) and says
// when the month renews; a refusal that says nothing of what is left leaves 0 until the service answers again.
// Against the sandbox (both shapes) and a raw service.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AllowanceView } from '../../../src/commands/allowance.js';
import { useHome } from '../../helpers/cli.js';
import { FakeClock } from '../../helpers/clock.js';
import { useServers } from '../../helpers/http-server.js';
import { registered, useSandboxes } from '../../helpers/sandbox.js';

const list = (n: number) => `email\n${Array.from({ length: n }, (_, i) => `b${i}@example.com`).join('\n')}\n`;
const FAST = ['--rate', '1000/1s', '--concurrency', '4'];
const MID_MONTH = Date.parse('2026-11-10T12:00:00Z');

describe.each(['spec', 'alt'] as const)('clean: the known allowance is a budget (%s answers)', (shape) => {
  const home = useHome();
  const sandboxes = useSandboxes();

  it('50 known to be left: one request of 50 and no refusal; then one address asks, refused, exit 3', async () => {
    const h = home();
    // One mid-month clock for the CLI and the service: the month's allowance does not turn under the test.
    h.clock = new FakeClock(MID_MONTH);
    const sandbox = await sandboxes.start({ plan: 'free', shape, now: h.clock.now, tokenTtlMs: 365 * 86_400_000 });
    await registered(h, sandbox);
    const input = join(h.dir, 'list.csv');
    writeFileSync(input, list(200));
    const first = await h.run(['clean', input, '-o', join(h.dir, 'out.csv'), ...FAST]);
    expect(first.code, first.stderr).toBe(3);
    expect(sandbox.stats()).toMatchObject({ cleanRequests: 1, addressesCharged: 50, allowanceRefused: 0 });
    expect(first.stderr).toMatch(/partial: 150 rows unchecked: the monthly allowance is used up \(0 left/);

    const again = await h.run(['clean', input, '-o', join(h.dir, 'out.csv'), '--resume', ...FAST]);
    expect(again.code, again.stderr).toBe(3);
    expect(sandbox.stats()).toMatchObject({ cleanRequests: 2, addressesCharged: 50, allowanceRefused: 1 });
    expect(again.stderr).toMatch(/0 left; renews \d{4}-\d\d-01\)/);
    expect(again.stderr).toContain('nothing spent (1 request sent)');
    const view = JSON.parse((await h.run(['allowance', '--json'])).stdout) as AllowanceView;
    expect(view).toMatchObject({ left: 0, spentThisMachine: 50 });
  });
});

describe('clean: a refusal that says nothing of what is left', () => {
  const home = useHome();
  const serve = useServers();

  it('leaves 0: `allowance` says so, and the next run sends one address, refused, before it gives up', async () => {
    let requests = 0;
    const service = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        requests++;
        const emails = (JSON.parse(body) as { email: string[] }).email;
        if (requests > 1) {
          res.writeHead(403, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: 'Your monthly quota is exhausted.' }));
          return;
        }
        const now = new Date().toISOString();
        const result = emails.map((email, i) => ({
          _id: String(i),
          userId: 'u1',
          email,
          emailStatus: { status: 'valid', valid: true, isDisposable: false, isValidDomain: true },
          createdAt: now,
          updatedAt: now,
        }));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'ok', status: true, statusCode: 200, result }));
      });
    });
    const h = home();
    // Mid-month: the refusal's news holds for every run below.
    h.clock = new FakeClock(MID_MONTH);
    const env = { MAILCLEAN_CLEAN_URL: service.url, MAILCLEAN_CLEAN_TOKEN: 'a-token' };
    const input = join(h.dir, 'list.csv');
    writeFileSync(input, list(80));
    const first = await h.run(
      ['clean', input, '-o', join(h.dir, 'out.csv'), '--rate', '1000/1s', '--concurrency', '1'],
      {
        env,
      },
    );
    expect(first.code, first.stderr).toBe(3);
    expect(requests).toBe(2);
    const view = JSON.parse((await h.run(['allowance', '--json'], { env })).stdout) as AllowanceView;
    expect(view).toMatchObject({ left: 0, source: 'refusal' });
    const again = await h.run(['clean', input, '-o', join(h.dir, 'out.csv'), '--resume', '--rate', '1000/1s'], { env });
    expect(again.code, again.stderr).toBe(3);
    expect(requests).toBe(3);
    expect(readFileSync(join(h.dir, 'out.csv'), 'utf8').trim().split('\n')).toHaveLength(81);
  });
});
