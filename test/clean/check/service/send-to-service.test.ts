// sendToService against the sandbox over real HTTP (both answer shapes), with the real limiter, journal and cache:
// every answer journaled and cached as it arrives, the allowance's refusal, --max-spend and a stop each end the
// sending with what was paid for kept, and nothing sent twice.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CleaningClient } from '../../../../src/api/cleaning.js';
import { HttpClient } from '../../../../src/api/http.js';
import { type SendOptions, sendToService } from '../../../../src/clean/check/service/send-to-service.js';
import { SlidingWindowLimiter } from '../../../../src/clean/state/disk/file-limiter.js';
import { Journal } from '../../../../src/clean/state/disk/journal.js';
import { SqliteVerdictCache } from '../../../../src/clean/state/disk/sqlite-verdict-cache.js';
import { realClock } from '../../../../src/clock.js';
import { NetworkError } from '../../../../src/errors.js';
import type { SandboxHandle } from '../../../../src/sandbox/server.js';
import { useSandboxes } from '../../../helpers/sandbox.js';
import { onSmallDisk } from '../../../helpers/small-disk.js';

/** The service's clock where its month matters: mid-month, so that it never turns under a test. */
const MID_MONTH = () => Date.parse('2026-11-10T12:00:00Z');

/** What a run believes when an earlier one was refused for the allowance this month. */
const USED_UP = { left: 0, until: Number.POSITIVE_INFINITY, fresh: false };

/** The client, each request's size written down; `fails` may make the n-th request fail before it is sent. */
function counted(client: CleaningClient, fails: (n: number) => Error | false = () => false) {
  const sizes: number[] = [];
  const clean = client.clean.bind(client);
  client.clean = (emails, signal) => {
    sizes.push(emails.length);
    const failure = fails(sizes.length);
    return failure ? Promise.reject(failure) : clean(emails, signal);
  };
  return { client, sizes };
}

const addresses = (n: number) => Array.from({ length: n }, (_, i) => `person${i}@example.com`);

describe.each(['spec', 'alt'] as const)('sendToService (%s shape)', (shape) => {
  const sandboxes = useSandboxes();
  let dir: string;
  let journal: Journal;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mailclean-send-'));
    journal = Journal.open(join(dir, 'list.jsonl'), { restart: false });
  });
  afterEach(async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function signedIn(sandbox: SandboxHandle): Promise<CleaningClient> {
    let token: string | undefined;
    const client = new CleaningClient(
      new HttpClient({ baseUrl: sandbox.url, serviceName: 'cleaning service', token: () => token, retries: 0 }),
    );
    token = (
      await client.signup({
        email: `send-${Math.random().toString(36).slice(2)}@example.com`,
        password: 'a long password',
      })
    ).token;
    return client;
  }

  function options(client: CleaningClient, pending: string[], extra: Partial<SendOptions> = {}): SendOptions {
    return {
      pending,
      journal,
      limiter: new SlidingWindowLimiter({
        rate: { requests: 100, windowMs: 1_000 },
        clock: realClock,
        statePath: join(dir, 'limiter.json'),
      }),
      client,
      clock: realClock,
      concurrency: 2,
      stop: new AbortController().signal,
      abort: new AbortController().signal,
      ...extra,
    };
  }

  it('sends each address once, in batches of 50, and journals and caches every answer', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    const cache = new SqliteVerdictCache(join(dir, 'cache.sqlite'));
    const outcome = await sendToService(options(await signedIn(sandbox), addresses(120), { cache }));
    expect(outcome).toMatchObject({ spent: 120, requests: 3 });
    expect(outcome.stopped).toBeUndefined();
    expect(sandbox.stats().addressesCharged).toBe(120);
    expect(Journal.peek(journal.path).results.size).toBe(120);
    expect(await cache.lookup(new Set(addresses(120)), 0, () => {})).toBe(120);
    await cache.close();
  });

  it('tells the addresses in flight: counted before each request leaves and until its answers are journaled', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    const client = await signedIn(sandbox);
    const told: number[] = [];
    let sent = 0;
    /** At each request's start: the last count told, less what is sent and not journaled (never below it). */
    const beyond: number[] = [];
    const clean = client.clean.bind(client);
    client.clean = (emails, signal) => {
      sent += emails.length;
      beyond.push((told.at(-1) ?? Number.NaN) - (sent - journal.recorded));
      return clean(emails, signal);
    };
    const onEvent: SendOptions['onEvent'] = (event) => {
      if (event.type === 'in-flight') told.push(event.addresses);
    };
    const outcome = await sendToService(options(client, addresses(120), { onEvent }));
    expect(outcome.spent).toBe(120);
    expect(beyond).toHaveLength(3);
    expect(beyond.filter((n) => !(n >= 0))).toEqual([]);
    expect(Math.max(...told)).toBeLessThanOrEqual(100);
    expect(told.at(-1)).toBe(0);
  });

  it('stops at the allowance, keeping what was answered, and says what is left', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'free', now: MID_MONTH });
    const outcome = await sendToService(options(await signedIn(sandbox), addresses(120)));
    expect(outcome.stopped?.reason).toBe('allowance');
    expect(outcome.spent).toBe(50);
    expect(Journal.peek(journal.path).results.size).toBe(50);
    expect(outcome.allowance?.left).toBe(0);
  });

  it('an allowance known to be used up is asked about with one address first, the others waiting for its answer', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    const { client, sizes } = counted(await signedIn(sandbox));
    const outcome = await sendToService(options(client, addresses(120), { allowance: USED_UP, concurrency: 4 }));
    expect(outcome.stopped).toBeUndefined();
    expect(outcome.spent).toBe(120);
    // Its batch's other 49 went back in line; nothing went before the answer, so 1 came first.
    expect(sizes[0]).toBe(1);
    expect(sizes.slice(1).sort((a, b) => b - a)).toEqual([50, 49, 20]);
    expect(sandbox.stats().addressesCharged).toBe(120);
  });

  it('a probe the service refuses ends the sending with that one request, nothing paid', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'free', now: MID_MONTH });
    const client = await signedIn(sandbox);
    expect((await sendToService(options(client, addresses(50)))).spent).toBe(50);
    const outcome = await sendToService(
      options(client, addresses(120).slice(50), { allowance: USED_UP, concurrency: 4 }),
    );
    expect(outcome).toMatchObject({ spent: 0, requests: 1, stopped: { reason: 'allowance' } });
    expect(sandbox.stats().allowanceRefused).toBe(1);
    expect(sandbox.stats().addressesCharged).toBe(50);
  });

  it('a probe whose connection is reset is asked again before anything else goes', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    // The first request's connection is reset before any answer, as the sandbox's --fault-rate does.
    const { client, sizes } = counted(await signedIn(sandbox), (n) => n === 1 && new NetworkError('socket hang up'));
    const outcome = await sendToService(options(client, addresses(60), { allowance: USED_UP, concurrency: 4 }));
    expect(outcome.spent).toBe(60);
    expect(sizes.slice(0, 2)).toEqual([1, 1]);
    expect(sandbox.stats().addressesCharged).toBe(60);
  });

  it('a wait for the rate limit is told as it begins, never again once it is over (the progress line)', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    const events: Array<{ type: string; ms?: number }> = [];
    const limiter = new SlidingWindowLimiter({
      rate: { requests: 1, windowMs: 200 },
      clock: realClock,
      statePath: join(dir, 'slow-limiter.json'),
    });
    const outcome = await sendToService(
      options(await signedIn(sandbox), addresses(150), { limiter, concurrency: 1, onEvent: (e) => events.push(e) }),
    );
    expect(outcome.spent).toBe(150);
    expect(events.filter((e) => e.type === 'limit-wait').length).toBeGreaterThanOrEqual(2);
    // A 'waiting' event is a wait to come (a 429's Retry-After): none here, so none is told.
    expect(events.filter((e) => e.type === 'waiting')).toEqual([]);
  });

  it('stops at --max-spend, the last batch shrunk to fit', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    const outcome = await sendToService(options(await signedIn(sandbox), addresses(120), { maxSpend: 70 }));
    expect(outcome.spent).toBe(70);
    expect(outcome.stopped?.reason).toBe('max-spend');
    expect(sandbox.stats().addressesCharged).toBe(70);
  });

  it('a batch that fails while the rest of --max-spend is in flight is sent again: the run still spends it all', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    // The first batch's connection is reset once it left, when the third batch has already been fitted.
    const { client } = counted(await signedIn(sandbox), (n) => n === 1 && new NetworkError('socket hang up'));
    const outcome = await sendToService(options(client, addresses(120), { maxSpend: 70, concurrency: 3 }));
    expect(outcome.spent).toBe(70);
    expect(outcome.stopped?.reason).toBe('max-spend');
    expect(sandbox.stats().addressesCharged).toBe(70);
  });

  it('cuts batches from the addresses as places free up: stopped after the first answer, most were never read', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    let read = 0;
    function* counted(): Generator<string> {
      for (const address of addresses(5_000)) {
        read++;
        yield address;
      }
    }
    const stop = new AbortController();
    const outcome = await sendToService(
      options(await signedIn(sandbox), [], {
        pending: counted(),
        stop: stop.signal,
        onEvent: (event) => {
          if (event.type === 'answered') stop.abort();
        },
      }),
    );
    expect(outcome.stopped?.reason).toBe('interrupted');
    // Two places: two batches in flight, two waiting, and the one found unsent when the stop came; never the 100 batches.
    expect(read).toBeLessThanOrEqual(5 * 50);
    expect(outcome.spent).toBeGreaterThanOrEqual(50);
    expect(Journal.peek(journal.path).results.size).toBe(outcome.spent);
  });

  it('a 422 whose rejected addresses cannot be journaled (a full disk) stops the sending: the rest of its batch is not sent (needs root to mount a tmpfs)', async (ctx) => {
    const disk = join(dir, 'disk');
    mkdirSync(disk);
    await onSmallDisk(ctx, disk, async () => {
      const full = Journal.open(join(disk, 'list.jsonl'), { restart: false });
      try {
        writeFileSync(join(disk, 'filler'), Buffer.alloc(128 * 1024));
      } catch {
        /* the disk is now full */
      }
      const sandbox = await sandboxes.start({ shape, plan: 'unlimited', faults: { rejectRate: 1, seed: 3 } });
      const outcome = await sendToService(
        options(await signedIn(sandbox), addresses(120), { concurrency: 1, journal: full }),
      );
      expect(outcome.stopped?.reason).toBe('storage');
      expect(outcome.stopped?.message).toMatch(/ENOSPC/);
      expect(sandbox.stats().cleanRequests).toBe(1);
      await full.close().catch(() => undefined);
    });
  });

  it('addresses that come through `more` are sent in full batches across its answers, and fetched while requests are in flight', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited', faults: { latencyMs: 200, seed: 1 } });
    const client = await signedIn(sandbox);
    const chunks = [addresses(130).slice(0, 30), addresses(130).slice(30, 100), addresses(130).slice(100)];
    const log: string[] = [];
    const more = async () => {
      log.push('more');
      return chunks.shift();
    };
    const outcome = await sendToService(
      options(client, [], { more, concurrency: 4, onEvent: (e) => e.type === 'answered' && log.push('answered') }),
    );
    // 130 addresses in chunks of 30, 70 and 30: three requests (50, 50, 30), not one cut short at each chunk's end.
    expect(outcome).toMatchObject({ spent: 130, requests: 3 });
    expect(sandbox.stats()).toMatchObject({ cleanRequests: 3, addressesCharged: 130 });
    expect(Journal.peek(journal.path).results.size).toBe(130);
    // Every chunk was asked for before the first answer came: nothing waited for a chunk's requests to end.
    expect(log.slice(0, 4)).toEqual(['more', 'more', 'more', 'more']);
  });

  it('stopped at --max-spend, it asks `more` for nothing after the stop', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    let asked = 0;
    const chunks = Array.from({ length: 10 }, (_, i) => addresses(1_000).slice(i * 100, i * 100 + 100));
    const more = async () => {
      asked++;
      return chunks.shift();
    };
    const outcome = await sendToService(options(await signedIn(sandbox), [], { more, maxSpend: 120, concurrency: 1 }));
    expect(outcome).toMatchObject({
      spent: 120,
      stopped: { reason: 'max-spend', message: 'stopped at --max-spend 120' },
    });
    expect(asked).toBeLessThanOrEqual(3);
  });

  it('sends every address of an iterable that is not an array, each once', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    const outcome = await sendToService(options(await signedIn(sandbox), [], { pending: new Set(addresses(175)) }));
    expect(outcome).toMatchObject({ spent: 175, requests: 4 });
    expect(sandbox.stats().addressesCharged).toBe(175);
    expect(Journal.peek(journal.path).results.size).toBe(175);
  });

  it('sends a request only with a slot the limiter booked for it, and after the answers before it are journaled', async () => {
    const rate = { requests: 3, windowMs: 400 };
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited', rate });
    const service = await signedIn(sandbox);
    const statePath = join(dir, 'limiter.json');
    let answered = 0;
    const seen: Array<{ journaled: number; inFlight: number; holding: number }> = [];
    // The real client, looked at as each request leaves: what the journal and the limiter's file hold by then.
    const client = {
      clean: async (emails: string[], signal?: AbortSignal) => {
        const { sends } = JSON.parse(readFileSync(statePath, 'utf8')) as {
          sends: Array<{ at: number; done?: number }>;
        };
        const now = Date.now();
        seen.push({
          journaled: Journal.peek(journal.path).results.size,
          inFlight: sends.filter((send) => send.done === undefined).length,
          holding: sends.filter((send) => send.done === undefined || now - send.done < rate.windowMs).length,
        });
        const records = await service.clean(emails, signal);
        answered += emails.length;
        return records;
      },
    };
    const limiter = new SlidingWindowLimiter({ rate, clock: realClock, statePath });
    const outcome = await sendToService({ ...options(service, addresses(500)), client, limiter, concurrency: 1 });
    expect(outcome).toMatchObject({ spent: 500, requests: 10 });
    expect(answered).toBe(500);
    // One place: each request leaves once every answer before it is on disk, with its own booking the one in flight,
    // and never more than the limit's bookings holding their slots.
    expect(seen.map((s) => s.journaled)).toEqual(Array.from({ length: 10 }, (_, i) => i * 50));
    expect(seen.map((s) => s.inFlight)).toEqual(Array.from({ length: 10 }, () => 1));
    for (const s of seen) expect(s.holding).toBeLessThanOrEqual(rate.requests);
    expect(sandbox.stats()).toMatchObject({ rateLimited: 0, addressesCharged: 500 });
  });

  it('sends nothing once asked to stop, and calls the run interrupted', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    const stop = new AbortController();
    stop.abort();
    const outcome = await sendToService(options(await signedIn(sandbox), addresses(120), { stop: stop.signal }));
    expect(outcome.stopped?.reason).toBe('interrupted');
    expect(outcome.spent).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(0);
  });
});
