import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../helpers/clock.js';
import { useSandboxes } from '../helpers/sandbox.js';
import { cleanCall, signupClean } from './clean-helpers.js';
import { ISO_MILLIS } from './helpers.js';

const { start, dataDir: freshDataDir } = useSandboxes('mailclean-answers-');

describe('verdicts', () => {
  it('returns one record per submitted address, in order, duplicates included', async () => {
    const clock = new FakeClock(Date.parse('2026-03-04T05:06:07.089Z'));
    const dataDir = freshDataDir();
    const sb = await start({ now: clock.now, dataDir });
    const { token, userId } = await signupClean(sb.url);
    const submitted = [
      'ada@example.com',
      'x@mailinator.com',
      'y@inbox.mailinator.com',
      'z@host.invalid',
      'ada@example.com',
      ' Pad@Example.ORG ',
      'w@foo.test',
      'q@MAILINATOR.COM',
    ];
    const res = await cleanCall(sb.url, token, submitted);
    expect(res.status).toBe(200);
    expect(res.json.message).toBe('Emails cleaned');
    expect(res.json.status).toBe(true);
    expect(res.json.statusCode).toBe(200);
    const records = res.json.result as any[];
    expect(records.map((r) => r.email)).toEqual(submitted);

    const good = { status: 'valid', valid: true, isDisposable: false, isValidDomain: true };
    const risky = { status: 'risky', valid: false, isDisposable: true, isValidDomain: true };
    const badDomain = { status: 'invalid', valid: false, isDisposable: false, isValidDomain: false };
    expect(records.map((r) => r.emailStatus)).toEqual([good, risky, risky, badDomain, good, good, badDomain, risky]);

    for (const r of records) {
      expect(Object.keys(r).sort()).toEqual(['_id', 'createdAt', 'email', 'emailStatus', 'updatedAt', 'userId']);
      expect(r._id).toMatch(/^[0-9a-f]{24}$/);
      expect(r.userId).toBe(userId);
      expect(r.createdAt).toMatch(ISO_MILLIS);
      expect(r.createdAt).toBe('2026-03-04T05:06:07.089Z');
      expect(r.updatedAt).toBe(r.createdAt);
    }
    expect(new Set(records.map((r) => r._id)).size).toBe(records.length);
    // Made as MongoDB makes ObjectIds: the seconds, five bytes of this process, a counter (not drawn per record).
    const ids = records.map((r) => r._id as string);
    expect(ids[0]!.slice(0, 8)).toBe(
      Math.floor(clock.time / 1000)
        .toString(16)
        .padStart(8, '0'),
    );
    expect(new Set(ids.map((id) => id.slice(0, 18))).size).toBe(1);
    expect(
      ids.map((id) => (Number.parseInt(id.slice(18), 16) - Number.parseInt(ids[0]!.slice(18), 16)) & 0xffffff),
    ).toEqual(ids.map((_, i) => i));

    // Only counters reach the state file, never the records.
    const text = await readFile(join(dataDir, 'sandbox.json'), 'utf8');
    const json = JSON.parse(text);
    expect(text).not.toContain('mailinator');
    expect(text).not.toContain('emailStatus');
    expect(json.cleanUsage[userId]).toEqual({ arrivals: [clock.time], month: '2026-03', used: submitted.length });
  });
});
