// The journal's lock as a user meets it: one left behind is taken over with a note; one held by a live run,
// wherever it runs, is waited for.
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../../src/sandbox/server.js';
import { TestHome } from '../../helpers/cli.js';
import { registered, useSandboxes } from '../../helpers/sandbox.js';

const sandboxes = useSandboxes();
let home: TestHome;
let sandbox: SandboxHandle;
let input: string;
beforeEach(async () => {
  home = new TestHome();
  sandbox = await sandboxes.start({ plan: 'unlimited' });
  await registered(home, sandbox);
  input = join(home.dir, 'list.csv');
  writeFileSync(input, `email\n${Array.from({ length: 60 }, (_, i) => `l${i}@example.com`).join('\n')}\n`);
});
afterEach(() => home.cleanup());

/** Runs the list once, then leaves `content` as its journal's lock, last touched `ageMs` ago. */
async function leaveLock(content: string, ageMs: number): Promise<void> {
  const first = await home.run(['clean', input, '-o', join(home.dir, 'out.csv')]);
  expect(first.code, first.stderr).toBe(0);
  const dir = join(home.dataDir, 'journals');
  const journal = readdirSync(dir).find((n) => n.endsWith('.ndjson'))!;
  const lock = join(dir, `${journal}.lock`);
  writeFileSync(lock, content);
  const at = new Date(Date.now() - ageMs);
  utimesSync(lock, at, at);
}

describe('clean: the journal lock', () => {
  it('an empty lock left by a crash is taken over with a note; nothing is paid twice', async () => {
    await leaveLock('', 60_000);
    const res = await home.run(['clean', input, '-o', join(home.dir, 'out.csv'), '--resume']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/^Took over this list's lock from an unknown run: it names no run\.$/m);
    expect(sandbox.stats().addressesCharged).toBe(60);
  });

  it('a lock naming a live but unrelated process, not refreshed for minutes (restored from a CI cache), is taken over', async () => {
    await leaveLock(JSON.stringify({ host: 'runner-a', pid: 1, started: '2026-11-20T08:00:00.000Z' }), 10 * 60_000);
    const res = await home.run(['clean', input, '-o', join(home.dir, 'out.csv'), '--resume']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(
      /^Took over this list's lock from pid 1 on runner-a, since 2026-11-20T08:00:00.000Z: it was last refreshed 60[0-9] s ago\.$/m,
    );
  });

  it('a fresh lock of a run on another machine is waited for (Ctrl-C ends the wait: exit 130)', async () => {
    await leaveLock(JSON.stringify({ host: 'runner-b', pid: 4242, started: '2026-11-24T09:00:00.000Z' }), 0);
    const running = home.run(['clean', input, '-o', join(home.dir, 'out.csv'), '--resume']);
    const deadline = Date.now() + 10_000;
    while (!home.stderrSoFar().includes('waiting for it to finish') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    home.signal('SIGINT');
    const res = await running;
    expect(res.code).toBe(130);
    expect(res.stderr).toMatch(
      /^Another run \(pid 4242 on runner-b, since 2026-11-24T09:00:00.000Z\) is cleaning this list with this account; waiting for it to finish…$/m,
    );
  });
});
