// `mailclean runs`, `runs view`, `runs resume`, `runs prune`: the CLI in-process against the sandbox over real HTTP
// (both answer shapes), with the account's state in the data directory and in a real redis-server on loopback.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { expectError, TestHome, useHome } from '../helpers/cli.js';
import { eventually, startGate } from '../helpers/gate.js';
import { REDIS_SKIP_NOTE, type RedisHandle, redisInstalled, redisRequired, startRedis } from '../helpers/redis.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';

if (!redisInstalled) console.log(`test/commands/runs.test.ts: ${REDIS_SKIP_NOTE} (the Redis store's cases)`);
const STORES = [
  { store: 'disk', available: true },
  { store: 'redis', available: redisInstalled || redisRequired },
].filter((s) => s.available);
const CASES = STORES.flatMap(({ store }) => (['spec', 'alt'] as const).map((shape) => ({ store, shape })));

describe.each(CASES)('runs ($store store, $shape answers)', ({ store, shape }) => {
  const sandboxes = useSandboxes();
  const home = useHome();
  let redis: RedisHandle | undefined;
  beforeAll(async () => {
    if (store === 'redis') redis = await startRedis();
  });
  afterAll(() => redis?.stop());
  /** A URL that carries a password (Redis's default user takes any). */
  const sharedWithSecret = () => redis!.url.replace('redis://', 'redis://default:s3cret-pass@');
  const env = (): Record<string, string> => (redis ? { MAILCLEAN_REDIS_URL: redis.url } : {});
  const cli = (args: string[], opts: { tty?: boolean; env?: Record<string, string> } = {}) =>
    home().run(args, { tty: opts.tty, env: { ...env(), ...opts.env } });
  const list = (name: string, n: number) => {
    const path = join(home().dir, name);
    writeFileSync(
      path,
      `email,name\n${Array.from({ length: n }, (_, i) => `${name.split('.')[0]}${i}@example.com,P ${i}`).join('\n')}\n`,
    );
    return path;
  };
  const signedIn = async (): Promise<SandboxHandle> => {
    const sandbox = await sandboxes.start({ plan: 'pro', shape, rate: { requests: 1_000, windowMs: 60_000 } });
    await registered(home(), sandbox);
    return sandbox;
  };
  const runsJson = async (fields?: string) => {
    const res = await cli(['runs', '--json', ...(fields ? [fields] : [])]);
    expect(res.code, res.stderr).toBe(0);
    return JSON.parse(res.stdout) as Array<Record<string, unknown>>;
  };

  it('runs lists the runs newest first: a table on a terminal, tab-separated in a pipe, --json FIELDS, --limit', async () => {
    const sandbox = await signedIn();
    expect((await cli(['runs'])).stdout).toBe('');
    const a = list('a.csv', 120);
    const out = join(home().dir, 'a.out.csv');
    expect((await cli(['clean', a, '-o', out, '--max-spend', '50'])).code).toBe(3);
    const b = list('b.csv', 30);
    expect((await cli(['clean', b, '-o', join(home().dir, 'b.out.csv')])).code).toBe(0);

    const runs = await runsJson('id,list,status,outcome,exitCode,rows,unique,spent,outputs,checker');
    expect(runs).toMatchObject([
      { list: 'b.csv', status: 'ended', outcome: 'success', exitCode: 0, rows: 30, spent: 30, checker: 'service' },
      {
        list: 'a.csv',
        status: 'ended',
        outcome: 'partial',
        exitCode: 3,
        rows: 120,
        unique: 120,
        spent: 50,
        outputs: [{ path: out, role: 'output', rows: 120 }],
      },
    ]);
    expect(sandbox.stats().addressesCharged).toBe(80);

    const piped = (await cli(['runs'])).stdout.trimEnd().split('\n');
    expect(piped[0]).toBe('ID\tLIST\tSTARTED\tENDED\tROWS\tSPENT\tOUTCOME\tOUTPUTS');
    expect(piped[2]!.split('\t')).toEqual([
      runs[1]!.id,
      'a.csv',
      expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      '120',
      '50',
      'partial',
      out,
    ]);
    const table = (await cli(['runs'], { tty: true })).stdout;
    expect(table).toMatch(/^ID\s+LIST\s+STARTED\s+ENDED\s+ROWS\s+SPENT\s+OUTCOME\s+OUTPUTS/);
    expect(table).toMatch(
      new RegExp(`^${runs[0]!.id}\\s+b\\.csv\\s+\\d+s ago\\s+\\d+s ago\\s+30\\s+30\\s+success`, 'm'),
    );

    expect((await runsJson()).length).toBe(2);
    const limited = await cli(['runs', 'list', '-L', '1', '--json', 'id']);
    expect(JSON.parse(limited.stdout)).toEqual([{ id: runs[0]!.id }]);
    expectError(await cli(['runs', '--limit', '0']), 2, /--limit: "0"/);
    expectError(await cli(['runs', '--json', 'id,nope']), 2, /unknown JSON field for --json: nope/);
  });

  it('runs view: counts by status, spend, allowance then, outputs, the command line without secrets; --json', async () => {
    await signedIn();
    const a = list('a.csv', 60);
    const out = join(home().dir, 'out.csv');
    const summary = join(home().dir, 'summary.json');
    const shared = redis ? ['--shared', sharedWithSecret()] : [];
    const cleaned = await cli(['clean', a, '-o', out, '--summary-json', summary, '--max-age', '7d', ...shared]);
    expect(cleaned.code, cleaned.stderr).toBe(0);
    const [{ id }] = (await runsJson('id')) as [{ id: string }];

    const view = await cli(['runs', 'view', id]);
    expect(view.code, view.stderr).toBe(0);
    expect(view.stdout).toMatch(new RegExp(`^Run\\s+${id}$`, 'm'));
    expect(view.stdout).toMatch(/^Status\s+success \(exit 0\)$/m);
    expect(view.stdout).toMatch(/^Rows\s+60 \(60 unique\)$/m);
    expect(view.stdout).toMatch(/^Spent\s+60 addresses$/m);
    expect(view.stdout).toMatch(/^Allowance\s+[\d,]+ left when it ended$/m);
    expect(view.stdout).toMatch(/^Statuses\s+\w+\s+\d+$/m);
    expect(view.stdout).toContain(`${out} (output, 60 rows)`);
    expect(view.stdout).toContain(`${summary} (summary)`);
    const redacted = redis ? ` --shared 'redis://***@${redis.url.slice('redis://'.length)}'` : '';
    // Flags in the order `clean --help` lists them.
    expect(view.stdout).toMatch(
      new RegExp(
        `^Command\\s+${literally(`mailclean clean ${a} --output ${out}${redacted} --max-age 7d --summary-json ${summary}`)}$`,
        'm',
      ),
    );
    // The password is nowhere: not shown, not kept in this machine's history nor in Redis.
    expect(view.stdout).not.toContain('s3cret');
    for (const file of readdirSync(join(home().dataDir, 'runs')))
      expect(readFileSync(join(home().dataDir, 'runs', file), 'utf8')).not.toContain('s3cret');

    const json = JSON.parse((await cli(['runs', 'view', id.slice(0, 5), '--json'])).stdout);
    expect(json).toMatchObject({
      id,
      status: 'ended',
      outcome: 'success',
      spent: 60,
      inFlight: 0,
      endedAt: expect.any(String),
    });
    const counted = Object.values(json.statuses as Record<string, number>).reduce((s, n) => s + n, 0);
    expect(counted).toBe(60);
    expect(json.allowanceLeft).toEqual(expect.any(Number));
    expect(Object.keys(json)).toHaveLength(23);
    // Nothing was in flight at its end: no line for it, and no count left beside the history.
    expect(view.stdout).not.toMatch(/^In flight/m);
    expect(readdirSync(join(home().dataDir, 'runs')).filter((file) => file.endsWith('.inflight'))).toEqual([]);
    expectError(await cli(['runs', 'view', 'ffffffff']), 1, /no run "ffffffff" in this account's run history/);
    expectError(await cli(['runs', 'view']), 2, /missing required argument 'id'/);
  });

  it('runs resume continues an interrupted run with its own flags: the same id, nothing paid twice', async () => {
    const sandbox = await signedIn();
    const gate = await startGate(sandbox.url);
    try {
      const viaGate = { env: { MAILCLEAN_CLEAN_URL: gate.url } };
      const a = list('a.csv', 400);
      const out = join(home().dir, 'out.csv');
      const shared = redis ? ['--shared', sharedWithSecret()] : [];
      const running = cli(['clean', a, '-o', out, '--concurrency', '1', ...shared], viaGate);
      expect(await eventually(() => gate.waiting() > 0)).toBe(true);
      home().signal('SIGINT');
      gate.open();
      const stopped = await running;
      expect(stopped.code, stopped.stderr).toBe(130);
      const paid = sandbox.stats().addressesCharged;
      expect(paid).toBeGreaterThan(0);
      expect(paid).toBeLessThan(400);
      const [run] = JSON.parse((await cli(['runs', '--json'], viaGate)).stdout);
      // The first signal lets the requests in flight finish and be journaled: none is left that was not counted.
      expect(run).toMatchObject({ status: 'ended', outcome: 'interrupted', exitCode: 130, spent: paid, inFlight: 0 });
      expect(existsSync(out)).toBe(false);

      // Its password was not kept: --shared gives it again.
      const resumed = await cli(['runs', 'resume', run.id, ...shared], viaGate);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain(`Resuming run ${run.id} of a.csv.`);
      expect(resumed.stderr).toMatch(new RegExp(`Resuming: ${paid} addresses already checked`));
      expect(sandbox.stats().addressesCharged).toBe(400);
      expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(401);
      const after = JSON.parse((await cli(['runs', '--json'], viaGate)).stdout);
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({
        id: run.id,
        startedAt: run.startedAt,
        resumedAt: expect.any(String),
        outcome: 'success',
        spent: 400,
      });

      expectError(await cli(['runs', 'resume', run.id], viaGate), 2, new RegExp(`run ${run.id} ended \\(success\\)`));
    } finally {
      await gate.close();
    }
  });

  it('runs resume continues a run the allowance stopped: after an upgrade on the service it finishes, paying only the rest', async () => {
    const sandbox = await sandboxes.start({ plan: 'free', shape });
    await registered(home(), sandbox, { email: 'upgrade@example.com' });
    const a = list('a.csv', 120);
    const out = join(home().dir, 'out.csv');
    const partial = await cli(['clean', a, '-o', out]);
    expect(partial.code, partial.stderr).toBe(3);
    expect(sandbox.stats().addressesCharged).toBe(50);
    const [run] = JSON.parse((await cli(['runs', '--json', 'id,outcome,resumable,spent'])).stdout);
    expect(run).toMatchObject({ outcome: 'partial', resumable: true, spent: 50 });
    const view = await cli(['runs', 'view', run.id]);
    expect(view.stdout).toMatch(
      new RegExp(`^Status\\s+partial \\(exit 3\\) \\(\`mailclean runs resume ${run.id}\`\\)$`, 'm'),
    );

    await sandbox.setPlan('upgrade@example.com', 'pro');
    const resumed = await cli(['runs', 'resume', run.id]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`Resuming run ${run.id} of a.csv.`);
    expect(sandbox.stats().addressesCharged).toBe(120);
    const after = JSON.parse((await cli(['runs', '--json', 'id,outcome,resumable,spent'])).stdout);
    expect(after).toEqual([{ id: run.id, outcome: 'success', resumable: false, spent: 120 }]);
    const statuses = readFileSync(out, 'utf8').trim().split('\n').slice(1);
    expect(statuses.every((line) => line.split(',')[2] === 'valid')).toBe(true);
  });

  it('a list changed since its run is not resumed: exit 2 naming the change and --restart, nothing sent', async () => {
    const sandbox = await signedIn();
    const a = list('a.csv', 120);
    expect((await cli(['clean', a, '-o', join(home().dir, 'out.csv'), '--max-spend', '50'])).code).toBe(3);
    const [run] = JSON.parse((await cli(['runs', '--json', 'id,resumable'])).stdout);
    expect(run.resumable).toBe(true);
    const requests = sandbox.stats().cleanRequests;
    // The same size, other addresses.
    writeFileSync(a, readFileSync(a, 'utf8').replaceAll('a', 'z'));
    const changed = await cli(['runs', 'resume', run.id]);
    expectError(
      changed,
      2,
      `error: ${a} changed since run ${run.id} read it (its content differs): it is not resumed, and nothing was sent`,
    );
    expect(changed.stderr).toMatch(/^hint: to clean the list as it is now: mailclean clean .* --restart$/m);
    // Longer: its size says so.
    writeFileSync(a, `${readFileSync(a, 'utf8')}more@example.com,More\n`);
    expectError(await cli(['runs', 'resume', run.id]), 2, /\(its size went from [\d,]+ to [\d,]+ bytes\)/);
    expect(sandbox.stats().cleanRequests).toBe(requests);
  });

  it.runIf(store === 'redis')(
    "--shared lists the runs of every runner of the account; without it, this machine's",
    async () => {
      const sandbox = await signedIn();
      expect((await cli(['clean', list('here.csv', 20), '-o', join(home().dir, 'here.out.csv')])).code).toBe(0);
      const token = (await cli(['auth', 'token', '--service', 'clean'])).stdout.trim();
      const elsewhere = new TestHome();
      try {
        const there = await elsewhere.run(
          ['clean', list('there.csv', 30), '-o', join(elsewhere.dir, 'there.out.csv')],
          {
            env: { MAILCLEAN_CLEAN_URL: sandbox.url, MAILCLEAN_CLEAN_TOKEN: token, MAILCLEAN_REDIS_URL: redis!.url },
          },
        );
        expect(there.code, there.stderr).toBe(0);
      } finally {
        elsewhere.cleanup();
      }
      const every = await home().run(['runs', '--shared', redis!.url, '--json', 'list,spent']);
      expect(JSON.parse(every.stdout)).toEqual([
        { list: 'there.csv', spent: 30 },
        { list: 'here.csv', spent: 20 },
      ]);
      const mine = await home().run(['runs', '--json', 'list'], { env: { MAILCLEAN_REDIS_URL: '' } });
      expect(JSON.parse(mine.stdout)).toEqual([{ list: 'here.csv' }]);
    },
  );

  it('runs prune --older-than forgets the runs that ended before, and their journals', async () => {
    const sandbox = await signedIn();
    const a = list('a.csv', 40);
    expect((await cli(['clean', a, '-o', join(home().dir, 'out.csv')])).code).toBe(0);
    const journals = () => readdirSync(join(home().dataDir, 'journals'), { recursive: true }).length;
    const before = journals();
    expect(before).toBeGreaterThan(0);

    const none = await cli(['runs', 'prune', '--older-than', '1d', '--json']);
    expect(JSON.parse(none.stdout)).toEqual({ forgotten: 0, journals: 0 });
    expect(await runsJson()).toHaveLength(1);

    const pruned = await cli(['runs', 'prune', '--older-than', '0']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stderr).toBe('Forgot 1 run older than 0 and 1 journal of their lists.\n');
    expect(await runsJson()).toEqual([]);
    expect(journals()).toBeLessThan(before);
    // The journal is gone: cleaning the list again asks the cache only (within --max-age), else pays again.
    expect((await cli(['clean', a, '-o', join(home().dir, 'out.csv'), '--max-age', '0'])).code).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(80);
    expectError(await cli(['runs', 'prune']), 2, /required option '--older-than <duration>' not specified/);
    expectError(await cli(['runs', 'prune', '--older-than', 'soon']), 2, /--older-than: "soon" is not a duration/);
  });
});

describe('runs without a cleaning account', () => {
  const home = useHome();
  it('lists nothing, exit 0; a terminal is told why and how to sign in; a run to view or resume is an error', async () => {
    const piped = await home().run(['runs']);
    expect(piped).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(JSON.parse((await home().run(['runs', '--json'])).stdout)).toEqual([]);
    const tty = await home().run(['runs'], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toMatch(
      /^Profile "default" has no cleaning account yet, so no run history: `mailclean login --clean-url URL` signs in to one\.$/m,
    );
    expectError(
      await home().run(['runs', 'view', 'abcd1234']),
      2,
      /has no cleaning account .*: the run history is kept per account/,
    );
  });
});

function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
