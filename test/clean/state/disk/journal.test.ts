// The journal of a list's answers: what was recorded survives a reopen and a SIGKILL at any moment (whole batches,
// the torn tail skipped), damage is counted rather than trusted, --restart forgets, and one run holds a list at a time.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  appendFileSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UniqueKeys } from '../../../../src/clean/scan/spill/unique-keys.js';
import { Journal, lockJournal } from '../../../../src/clean/state/disk/journal.js';
import type { Verdict } from '../../../../src/clean/verdict/verdict.js';
import { onSmallDisk } from '../../../helpers/small-disk.js';

const BUILT = pathToFileURL(
  join(import.meta.dirname, '..', '..', '..', '..', 'dist', 'clean', 'state', 'disk', 'journal.js'),
).href;

const verdict = (key: string, status = 'valid'): Verdict => ({
  key,
  status,
  valid: status === 'valid',
  disposable: false,
  validDomain: true,
  reason: '',
  checkedAt: '2026-11-24T10:00:00.000Z',
});

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mailclean-journal-'));
  path = join(dir, 'journals', 'list.jsonl');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('Journal', () => {
  it('keeps every recorded answer across a reopen, in a private file; --restart forgets them', async () => {
    const journal = Journal.open(path, { restart: false });
    await journal.record([verdict('a@example.com'), verdict('b@example.com', 'invalid')]);
    await journal.record([]);
    await journal.record([verdict('c@example.com')]);
    await journal.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await expect(journal.record([verdict('d@example.com')])).rejects.toThrow(/closed/);

    const again = Journal.open(path, { restart: false });
    await again.record([verdict('d@example.com')]);
    await again.close();
    const saved = Journal.peek(path);
    expect([...saved.results.keys()]).toEqual(['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com']);
    expect(saved.results.get('b@example.com')?.status).toBe('invalid');
    expect(saved.badLines).toBe(0);
    expect(again.recorded).toBe(1);

    const fresh = Journal.open(path, { restart: true });
    expect(Journal.peek(path).results.size).toBe(0);
    await fresh.close();
  });

  it('answers recorded in a row, while a write is under way, come out one line a batch in order; each is on disk when its record resolves', async () => {
    const journal = Journal.open(path, { restart: false });
    const batches = Array.from({ length: 20 }, (_, b) =>
      Array.from({ length: 50 }, (_, i) => verdict(`u${b}.${i}@example.com`)),
    );
    const written = batches.map((batch) => journal.record(batch));
    await written[0];
    expect(Journal.peek(path).results.size).toBeGreaterThanOrEqual(50);
    await Promise.all(written);
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    // One line a batch, in the order recorded, whichever write carried them.
    expect(lines.map((line) => (JSON.parse(line) as { a: string[][] }).a[0]![0])).toEqual(
      batches.map((batch) => batch[0]!.key),
    );
    await journal.close();
  });

  it('is written so that each write returns with its answers on disk (O_DSYNC), without a separate flush (Linux)', async (ctx) => {
    if (process.platform !== 'linux') return ctx.skip();
    const journal = Journal.open(path, { restart: false });
    // The journal's descriptor, found by the file it opened; its open flags as the kernel holds them (octal).
    const fd = readdirSync('/proc/self/fd').find((n) => {
      try {
        return readlinkSync(`/proc/self/fd/${n}`) === path;
      } catch {
        return false;
      }
    });
    expect(fd).toBeDefined();
    const flags = Number.parseInt(/^flags:\s+(\d+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))![1]!, 8);
    expect(flags & constants.O_DSYNC).toBe(constants.O_DSYNC);
    expect(flags & constants.O_APPEND).toBe(constants.O_APPEND);
    await journal.record([verdict('a@example.com')]);
    await journal.close();
    expect(Journal.peek(path).results.size).toBe(1);
  });

  it('on a full disk, the answers that cannot be written fail, and every record after them; what was written reads back whole (needs root to mount a tmpfs)', async (ctx) => {
    const disk = join(dir, 'disk');
    mkdirSync(disk);
    await onSmallDisk(ctx, disk, async () => {
      const file = join(disk, 'list.jsonl');
      const journal = Journal.open(file, { restart: false });
      let failure: NodeJS.ErrnoException | undefined;
      let saved = 0;
      for (let b = 0; b < 100 && !failure; b++) {
        const batch = Array.from({ length: 50 }, (_, i) => ({
          ...verdict(`u${b}.${i}@example.com`),
          reason: 'x'.repeat(100),
        }));
        await journal.record(batch).then(
          () => saved++,
          (error: NodeJS.ErrnoException) => (failure = error),
        );
      }
      expect(failure?.code).toBe('ENOSPC');
      await expect(journal.record([verdict('late@example.com')])).rejects.toThrow(/ENOSPC/);
      await journal.close();
      const back = Journal.peek(file);
      expect(back.results.size).toBe(saved * 50);
      expect(back.badLines).toBe(0);
    });
  });

  it('skips a torn last line quietly, and counts damaged or foreign lines without trusting them', async () => {
    const journal = Journal.open(path, { restart: false });
    await journal.record([verdict('a@example.com')]);
    await journal.close();
    appendFileSync(path, 'not json\n{"r":[{"key":"x@example.com","status":"valid"}]}\n{"r":[]}\n');
    appendFileSync(path, `${JSON.stringify({ r: [verdict('b@example.com')] })}\n{"r":[{"key":"c@exa`);
    const saved = Journal.peek(path);
    expect([...saved.results.keys()]).toEqual(['a@example.com', 'b@example.com']);
    // 'not json' and the verdict missing its fields; the empty batch is harmless; the torn tail is expected.
    expect(saved.badLines).toBe(2);
  });

  it('keeps every field of every answer through a reopen, in about 40 bytes an address', async () => {
    const at = '2026-11-26T16:16:20.942Z';
    const answers: Verdict[] = [
      { ...verdict('ada@example.com'), checkedAt: at, serviceStatus: 'deliverable', free: false, role: false },
      { ...verdict('bob@gmial.com', 'invalid'), checkedAt: at, suggestion: 'bob@gmail.com', decidedBy: 'precheck' },
      { ...verdict('info@example.org', 'unknown'), checkedAt: at, valid: null, validDomain: null, role: true },
      { ...verdict('eve@example.net', 'risky'), checkedAt: at, disposable: null, reason: 'accept_all' },
    ];
    const journal = Journal.open(path, { restart: false });
    await journal.record(answers);
    await journal.close();
    // An answer that does not say its address's kind comes back with it, as its key gives it (see below).
    expect([...Journal.peek(path).results.values()]).toEqual(
      answers.map((a) => (a.free === undefined ? { ...a, free: false, role: a.key.startsWith('info@') } : a)),
    );

    // A service's batch of 50 typical answers: each address costs its key and about 15 bytes.
    const batch = Array.from({ length: 50 }, (_, i) => ({
      ...verdict(`person${1000 + i}@example${i % 97}.com`),
      checkedAt: at,
      serviceStatus: 'deliverable',
      free: false,
      role: false,
    }));
    const big = join(dir, 'big.jsonl');
    const second = Journal.open(big, { restart: false });
    await second.record(batch);
    await second.close();
    const perAddress = statSync(big).size / batch.length;
    expect(perAddress).toBeLessThanOrEqual(45);
    expect(Journal.peek(big).results.get('person1000@example0.com')).toEqual(batch[0]);
  });

  it('writes a service answer with its address’s kind; a line written without it is read as before', async () => {
    const at = '2026-11-26T16:16:20.942Z';
    const journal = Journal.open(path, { restart: false });
    await journal.record([
      { ...verdict('info@gmail.com'), checkedAt: at },
      { ...verdict('ada@example.com'), checkedAt: at },
    ]);
    await journal.close();
    const back = Journal.peek(path).results;
    expect(back.get('info@gmail.com')).toMatchObject({ free: true, role: true });
    expect(back.get('ada@example.com')).toMatchObject({ free: false, role: false });

    // valid, not disposable, valid domain, kind unknown: flags 1,0,1,2,2 in base 3.
    const older = { w: ['valid', '', at], a: [['info@gmail.com', 98, 0, 1, 2]] };
    writeFileSync(join(dir, 'older.jsonl'), `${JSON.stringify(older)}\n`);
    const read = Journal.peek(join(dir, 'older.jsonl')).results.get('info@gmail.com');
    expect(read).toEqual({ ...verdict('info@gmail.com'), checkedAt: at });
  });

  it('reads a list’s answers by number from the lines’ bytes, every line form as the text reader does', async () => {
    const at = '2026-11-26T16:16:20.942Z';
    const journal = Journal.open(path, { restart: false });
    // Current lines: several answers alike and not, an address of non-ASCII bytes, one a JSON string escapes.
    await journal.record([
      { ...verdict('ada@example.com'), checkedAt: at, serviceStatus: 'deliverable' },
      { ...verdict('zoë@exämple.org'), checkedAt: at, serviceStatus: 'deliverable' },
      { ...verdict('"a\\b"@example.com', 'invalid'), checkedAt: at, reason: 'mailbox "full"' },
      { ...verdict('not-listed@example.com'), checkedAt: at },
    ]);
    await journal.record([{ ...verdict('info@gmail.com', 'risky'), checkedAt: at, disposable: null, role: true }]);
    await journal.close();
    // Older lines (0.1.0's: every answer whole; no kind), damage, a torn tail.
    const whole = { ...verdict('old@example.com'), status: 'risky', serviceStatus: 'disposable', valid: false };
    appendFileSync(path, `${JSON.stringify({ r: [whole] })}\n`);
    appendFileSync(path, `${JSON.stringify({ w: ['valid', '', at], a: [['kind@gmail.com', 98, 0, 1, 2]] })}\n`);
    appendFileSync(path, '{"w":["valid"],"a":[["ada@example.com",1.5,0]]}\n{"w":[],"a":[["x@y.com",-1,7]]}\n');
    appendFileSync(path, '{"w":["valid"],"a":[["torn@example.com",1');
    const listed = ['info@gmail.com', 'old@example.com', 'zoë@exämple.org', '"a\\b"@example.com', 'kind@gmail.com'];
    const keys = new UniqueKeys({ budget: 1 << 20, spoolDir: dir });
    for (const key of [...listed, 'ada@example.com']) keys.add(key);

    const byText = new Map<string, Verdict>();
    const textRead = Journal.read(path, (key, v) => {
      if (keys.ordinal(key) >= 0) byText.set(key, v);
    });
    const byNumber = new Map<string, Verdict>();
    const numberRead = Journal.readNumbered(path, keys, (ordinal, v, key) => {
      expect(keys.ordinal(key())).toBe(ordinal);
      byNumber.set(key(), v);
    });
    expect(numberRead).toEqual(textRead);
    expect(numberRead.badLines).toBe(2);
    expect(byNumber).toEqual(byText);
    expect(new Set(byNumber.keys())).toEqual(new Set([...listed, 'ada@example.com']));
    expect(byNumber.get('old@example.com')).toMatchObject({ status: 'risky', serviceStatus: 'disposable' });
    expect(byNumber.get('"a\\b"@example.com')).toMatchObject({ status: 'invalid', reason: 'mailbox "full"' });
    expect(byNumber.get('info@gmail.com')).toMatchObject({ disposable: null, role: true, free: true });
    keys.close();
  });

  it('killed while recording (SIGKILL), it reads back whole batches only, every one that was flushed', async () => {
    const script = `
      import { Journal } from ${JSON.stringify(BUILT)};
      const journal = Journal.open(${JSON.stringify(path)}, { restart: false });
      for (let batch = 0; ; batch++) {
        const verdicts = Array.from({ length: 50 }, (_, i) => ({ key: 'u' + batch + '.' + i + '@example.com', status: 'valid', valid: true, disposable: false, validDomain: true, reason: '', checkedAt: 'x'.repeat(200) }));
        await journal.record(verdicts);
        process.stdout.write(batch + '\\n');
      }`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let reported = -1;
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = chunk.toString().trim().split('\n');
      reported = Number(lines.at(-1));
    });
    while (reported < 20) await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill('SIGKILL');
    await once(child, 'exit');
    const saved = Journal.peek(path);
    expect(saved.results.size % 50).toBe(0);
    // Every batch reported done was flushed before the report; at most the one in flight may be missing.
    expect(saved.results.size / 50).toBeGreaterThanOrEqual(reported + 1);
    expect(saved.badLines).toBe(0);
    expect(readFileSync(path, 'utf8').length).toBeGreaterThan(0);
  }, 30_000);
});

describe('lockJournal', () => {
  it('holds a list for one run: a second waits (told who holds it) and goes on once it is released', async () => {
    const release = await lockJournal(path, {});
    const waited: string[] = [];
    let secondHolds = false;
    const second = lockJournal(path, { pollMs: 10, onWait: (owner) => waited.push(owner) }).then((r) => {
      secondHolds = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(secondHolds).toBe(false);
    expect(waited).toHaveLength(1);
    expect(waited[0]).toMatch(new RegExp(`^pid ${process.pid}, since \\d{4}-\\d\\d-\\d\\dT`));
    release();
    (await second)();
    expect(secondHolds).toBe(true);
  });

  it('takes over a lock left empty by a run that died, saying why', async () => {
    mkdirSync(join(dir, 'journals'), { recursive: true });
    writeFileSync(`${path}.lock`, '');
    const old = new Date(Date.now() - 120_000);
    utimesSync(`${path}.lock`, old, old);
    const reasons: string[] = [];
    const release = await lockJournal(path, { pollMs: 10, onTakeOver: (_owner, why) => reasons.push(why) });
    expect(reasons).toHaveLength(1);
    release();
  });

  it('stops waiting when the run is stopped', async () => {
    const release = await lockJournal(path, {});
    const stop = new AbortController();
    const waiting = lockJournal(path, { pollMs: 10, signal: stop.signal });
    stop.abort(new Error('interrupted'));
    await expect(waiting).rejects.toThrow('interrupted');
    release();
  });
});
