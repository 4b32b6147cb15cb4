// Figures a user acts on are true: the dry run's wait counts what the account's runs used of the window already,
// role accounts are counted as the email_role column shows them (summary, report, job summary, --fail-when), and
// with a service configured, --local rows say who decided them. Against the sandbox, both answer shapes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHome } from '../../helpers/cli.js';
import { registered, useSandboxes } from '../../helpers/sandbox.js';

const csvRows = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(','));

describe.each(['spec', 'alt'] as const)('clean: true figures (%s answers)', (shape) => {
  const home = useHome();
  const sandboxes = useSandboxes();

  it("the dry run's wait counts the requests the account already made in the window", async () => {
    const sandbox = await sandboxes.start({ plan: 'pro', shape, rate: { requests: 3, windowMs: 60_000 } });
    const h = home();
    await registered(h, sandbox);
    const list = (name: string, from: number, n: number) => {
      const path = join(h.dir, name);
      writeFileSync(path, `email\n${Array.from({ length: n }, (_, i) => `w${from + i}@example.com`).join('\n')}\n`);
      return path;
    };
    const rate = ['--rate', '3/60s'];
    const idle = await h.run([
      'clean',
      list('a.csv', 0, 100),
      '--dry-run',
      '--json',
      'minimumSeconds,requests',
      ...rate,
    ]);
    // Two requests fit in one window of three: no wait.
    expect(JSON.parse(idle.stdout)).toEqual({ requests: 2, minimumSeconds: 0 });
    const used = await h.run(['clean', list('b.csv', 1_000, 150), '-o', join(h.dir, 'b.out.csv'), ...rate]);
    expect(used.code, used.stderr).toBe(0);
    expect(sandbox.stats().cleanRequests).toBe(3);
    // The window is full now: the same two requests wait for it, about a minute (the margin on top).
    const busy = await h.run(['clean', join(h.dir, 'a.csv'), '--dry-run', '--json', 'minimumSeconds', ...rate]);
    const { minimumSeconds } = JSON.parse(busy.stdout) as { minimumSeconds: number };
    expect(minimumSeconds).toBeGreaterThanOrEqual(55);
    expect(minimumSeconds).toBeLessThanOrEqual(61);
  });

  it('role accounts are counted as email_role shows them: summary, report, job summary and --fail-when', async () => {
    const sandbox = await sandboxes.start({ plan: 'pro', shape });
    const h = home();
    await registered(h, sandbox);
    const input = join(h.dir, 'list.csv');
    writeFileSync(input, 'email\ninfo@example.com\nsales@example.com\nann@example.com\nno-reply@example.com\n');
    const out = join(h.dir, 'out.csv');
    const summary = join(h.dir, 'summary.json');
    const report = join(h.dir, 'report.html');
    const step = join(h.dir, 'step.md');
    const res = await h.run(
      ['clean', input, '-o', out, '--summary-json', summary, '--report', report, '--fail-when', 'role>0'],
      { env: { GITHUB_STEP_SUMMARY: step } },
    );
    const rows = csvRows(out);
    const roleColumn = rows[0]!.indexOf('email_role');
    const roles = rows.slice(1).filter((r) => r[roleColumn] === 'true').length;
    expect(roles).toBe(3);
    expect(JSON.parse(readFileSync(summary, 'utf8'))).toMatchObject({ role: 3 });
    expect(readFileSync(report, 'utf8')).toMatch(/3 role accounts?/);
    expect(res.code, res.stderr).toBe(5);
    expect(res.stderr).toMatch(/fail-when: role is 3 rows \(role>0\)/);
    expect(readFileSync(step, 'utf8')).toMatch(/role>0/);
  });

  it('--local with a service configured: the paid rows say service, the engine rows local', async () => {
    const sandbox = await sandboxes.start({ plan: 'pro', shape });
    const h = home();
    await registered(h, sandbox);
    const input = join(h.dir, 'list.csv');
    writeFileSync(input, 'email\npaid1@example.com\npaid2@example.com\n');
    expect((await h.run(['clean', input, '-o', join(h.dir, 'first.csv')])).code).toBe(0);
    writeFileSync(input, 'email\npaid1@example.com\npaid2@example.com\nfree@example.invalid\n');
    const local = await h.run(['clean', input, '-o', join(h.dir, 'local.csv'), '--local']);
    expect(local.code, local.stderr).toBe(0);
    const rows = csvRows(join(h.dir, 'local.csv'));
    const by = rows[0]!.indexOf('email_checked_by');
    expect(by).toBeGreaterThan(0);
    expect(rows.slice(1).map((r) => `${r[0]} ${r[by]}`)).toEqual([
      'paid1@example.com service',
      'paid2@example.com service',
      'free@example.invalid local',
    ]);
  });
});
