// Two containers with one hostname sharing a data directory (`docker run --hostname ci -v data:/data`): a runner in
// the other one holds a lock, claims addresses and spools its list under a pid that no process has in this
// container. Judged by its host alone, it looked dead here: a second run took its lock and its claims and paid for
// the same addresses, and removed its spool as a killed run's leftover.
// The other container is a real process in a pid namespace of its own (`unshare`, which needs root): where one
// cannot be made, the test is skipped and says so.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDeadSpools } from '../../src/clean/scan/input/source.js';
import { openAccountState } from '../../src/clean/state/open-state.js';
import { readOwner, staleReason, tryLock } from '../../src/lock-files.js';

const DIST = new URL('../../dist/', import.meta.url).href;
const unshareWorks =
  spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true'], { stdio: 'ignore' }).status === 0;
if (!unshareWorks)
  console.log('test/e2e/pid-namespace.test.ts: skipped: no pid namespace can be made here (unshare needs root)');

/** Takes the lock, claims two addresses and spools a list, says so, and waits to be killed. */
const HOLD = `
const { Readable } = await import('node:stream');
const { tryLock } = await import(${JSON.stringify(`${DIST}lock-files.js`)});
const { spool } = await import(${JSON.stringify(`${DIST}clean/scan/input/source.js`)});
const { openAccountState } = await import(${JSON.stringify(`${DIST}clean/state/open-state.js`)});
const where = JSON.parse(process.env.MAILCLEAN_STATE);
if (!tryLock(where.lock).taken) throw new Error('lock not taken');
const claims = (await openAccountState(where)).claims();
await claims.start();
await claims.claim(['a@example.com', 'b@example.com']);
await spool(Readable.from(['email\\na@example.com\\n']), where.spool, 'the list');
process.stdout.write(process.pid + '\\n');
setInterval(() => {}, 60_000);
`;

describe.runIf(unshareWorks)('a runner in another pid namespace with this hostname', () => {
  let holder: ChildProcess | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    if (holder?.exitCode === null) {
      holder.kill('SIGKILL');
      await once(holder, 'exit');
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps its lock, its claims and its spool, though its pid is no process here', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mailclean-pidns-'));
    const spoolDir = join(dataDir, 'spool');
    const where = { dataDir, account: 'account-1', lock: join(dataDir, 'journal.lock'), spool: spoolDir };
    // Its pid inside its namespace is one that no process has here: the only case where asking here misleads.
    const pid = Array.from({ length: 500 }, (_, i) => 32_000 + i).find((p) => !existsSync(`/proc/${p}`))!;
    holder = spawn(
      'unshare',
      [
        '--pid',
        '--fork',
        '--mount-proc',
        '--kill-child',
        'sh',
        '-c',
        `echo ${pid - 1} > /proc/sys/kernel/ns_last_pid; "${process.execPath}" --input-type=module -e "$HOLD"`,
      ],
      { env: { ...process.env, HOLD, MAILCLEAN_STATE: JSON.stringify(where) }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [said] = await once(holder.stdout!, 'data');
    expect(Number(String(said))).toBe(pid);
    expect(existsSync(`/proc/${pid}`)).toBe(false);

    const spooled = readdirSync(spoolDir);
    expect(spooled).toEqual([expect.stringMatching(new RegExp(`^input-${pid}~[0-9a-f]{8}-[0-9a-f]+\\.spool$`))]);
    removeDeadSpools(spoolDir);
    expect(readdirSync(spoolDir)).toEqual(spooled);

    const owner = readOwner(where.lock);
    expect(owner.pid).toBe(pid);
    expect(staleReason(owner, 60_000)).toBeUndefined();
    expect(tryLock(where.lock).taken).toBe(false);

    const claims = (await openAccountState(where)).claims();
    await claims.start();
    try {
      expect(await claims.claim(['a@example.com', 'b@example.com'])).toEqual({
        mine: [],
        theirs: ['a@example.com', 'b@example.com'],
      });
      expect(await claims.takeOverFromGone(['a@example.com', 'b@example.com'])).toEqual([]);
    } finally {
      await claims.release();
    }
  });
});
