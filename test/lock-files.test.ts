// Lock files: who holds them, and when one left behind may be taken over (a run killed, a lock restored from
// another machine's cache, a pid since reused by an unrelated process).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeOwner, keepFresh, processSpace, readOwner, staleReason, tryLock } from '../src/lock-files.js';

const MINUTE = 60_000;
let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mailclean-lock-'));
  path = join(dir, 'list.lock');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A pid that belonged to a process which has exited. */
function deadPid(): number {
  return Number(
    spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout,
  );
}

function lockFile(content: string, ageMs: number): void {
  writeFileSync(path, content);
  const at = new Date(Date.now() - ageMs);
  utimesSync(path, at, at);
}

describe('lock files', () => {
  it('say who holds them: host, process space, pid and start time; a second taker is told so', () => {
    const first = tryLock(path, Date.UTC(2026, 10, 24, 10));
    expect(first.taken).toBe(true);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      host: hostname(),
      space: processSpace(),
      pid: process.pid,
      started: '2026-11-24T10:00:00.000Z',
    });
    const second = tryLock(path);
    expect(second).toMatchObject({
      taken: false,
      owner: { host: hostname(), space: processSpace(), pid: process.pid, started: '2026-11-24T10:00:00.000Z' },
    });
    if (first.taken) first.release();
    expect(existsSync(path)).toBe(false);
  });

  it('read the bare pid that older versions wrote', () => {
    lockFile('4242\n', 0);
    expect(readOwner(path)).toMatchObject({ pid: 4242 });
  });

  it('held by a live run on this machine and refreshed: respected', () => {
    lockFile(JSON.stringify({ host: hostname(), pid: process.pid }), 0);
    expect(staleReason(readOwner(path), MINUTE)).toBeUndefined();
  });

  it('whose run is gone: taken over at once', () => {
    lockFile(JSON.stringify({ host: hostname(), pid: deadPid() }), 0);
    expect(staleReason(readOwner(path), MINUTE)).toBe('its run is gone');
  });

  it('empty: respected for a moment (its run may be writing it), then taken over', () => {
    lockFile('', 0);
    expect(staleReason(readOwner(path), MINUTE)).toBeUndefined();
    lockFile('', 10_000);
    expect(staleReason(readOwner(path), MINUTE)).toBe('it names no run');
  });

  it('naming a live but unrelated process (a reused pid): taken over once it has not been refreshed for a minute', () => {
    lockFile(JSON.stringify({ host: hostname(), pid: 1 }), 30_000);
    expect(staleReason(readOwner(path), MINUTE)).toBeUndefined();
    lockFile(JSON.stringify({ host: hostname(), pid: 1 }), 2 * MINUTE);
    expect(staleReason(readOwner(path), MINUTE)).toBe('it was last refreshed 120 s ago');
  });

  it('from another machine: its pid tells nothing here, so only its freshness counts', () => {
    const pid = deadPid();
    lockFile(JSON.stringify({ host: 'ci-runner-elsewhere', pid }), 0);
    expect(staleReason(readOwner(path), MINUTE)).toBeUndefined();
    expect(describeOwner(readOwner(path))).toBe(`pid ${pid} on ci-runner-elsewhere`);
    lockFile(JSON.stringify({ host: 'ci-runner-elsewhere', pid }), 5 * MINUTE);
    expect(staleReason(readOwner(path), MINUTE)).toBe('it was last refreshed 300 s ago');
  });

  it('dated in the future (the clock was stepped back): taken over', () => {
    lockFile(JSON.stringify({ host: hostname(), pid: 1 }), -10 * MINUTE);
    expect(staleReason(readOwner(path), MINUTE)).toMatch(/^it was last refreshed/);
  });

  it('are kept fresh by their holder', async () => {
    lockFile(JSON.stringify({ host: hostname(), pid: process.pid }), 10 * MINUTE);
    const stop = keepFresh(path, 10);
    try {
      for (let i = 0; i < 200 && Date.now() - statSync(path).mtimeMs > MINUTE; i++)
        await new Promise((r) => setTimeout(r, 10));
    } finally {
      stop();
    }
    expect(staleReason(readOwner(path), MINUTE)).toBeUndefined();
  });
});
