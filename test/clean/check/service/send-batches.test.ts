// The checker's answers to a service that rejects some addresses (422) or leaves records out of a 200:
// `mailclean clean` in-process against a sandbox injecting those faults, over real HTTP on 127.0.0.1.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FaultOptions, SandboxHandle } from '../../../../src/sandbox/server.js';
import { useHome } from '../../../helpers/cli.js';
import { registered, useSandboxes } from '../../../helpers/sandbox.js';

interface Row {
  email: string;
  email_status: string;
  email_reason: string;
}

const sandboxes = useSandboxes('mailclean-checker-');
const home = useHome();

/** `n` distinct addresses; every fifth on a disposable domain, so real verdicts are not all alike. */
function addresses(n: number): string[] {
  return Array.from({ length: n }, (_, i) =>
    i % 5 === 4 ? `temp${i}@mailinator.com` : `person${i}@example${i % 7}.com`,
  );
}

/** What the sandbox's engine says of an address when nothing goes wrong. */
function realStatus(email: string): string {
  return email.endsWith('@mailinator.com') ? 'risky' : 'valid';
}

async function cleanWith(
  faults: FaultOptions,
  emails: string[],
): Promise<{ sandbox: SandboxHandle; rows: Row[]; stderr: string }> {
  const sandbox = await sandboxes.start({ plan: 'unlimited', rate: { requests: 10_000, windowMs: 60_000 }, faults });
  await registered(home(), sandbox);
  const input = join(home().dir, 'list.csv');
  writeFileSync(input, `email\n${emails.join('\n')}\n`);
  const output = join(home().dir, 'out.json');
  // One request at a time: the seeded faults then fall on the same requests in every run. Every address is sent
  // (the precheck would decide the disposable ones, DNS or not), so the service's answers are what is tested.
  const res = await home().run([
    'clean',
    input,
    '-o',
    output,
    '--format',
    'json',
    '--rate',
    '10000/1m',
    '--concurrency',
    '1',
    '--no-precheck',
  ]);
  expect(res.code, res.stderr).toBe(0);
  const rows = JSON.parse(readFileSync(output, 'utf8')) as Row[];
  // Every row decided exactly once, in input order, and none left unchecked.
  expect(rows.map((r) => r.email)).toEqual(emails);
  expect(rows.filter((r) => r.email_status === 'unchecked')).toEqual([]);
  return { sandbox, rows, stderr: res.stderr };
}

/** Rows with `reason` have `status`; every other row has the verdict the sandbox gives when nothing goes wrong. */
function expectVerdicts(rows: Row[], failed: { reason: string; status: string }): Row[] {
  const failedRows = rows.filter((r) => r.email_reason === failed.reason);
  for (const row of failedRows) expect(row.email_status, row.email).toBe(failed.status);
  for (const row of rows.filter((r) => r.email_reason !== failed.reason))
    expect(row.email_status, row.email).toBe(realStatus(row.email));
  return failedRows;
}

/** The CLI's own account of its spending, from the summary line. */
function spentOf(stderr: string): { addresses: number; requests: number } {
  const m = /spent (\d+) address(?:es)? in (\d+) requests?/.exec(stderr);
  expect(m, stderr).not.toBeNull();
  return { addresses: Number(m![1]), requests: Number(m![2]) };
}

describe('clean: the service rejects addresses (422)', () => {
  it('an address a 422 names is invalid/rejected_by_service; the rest of its batch gets real verdicts', async () => {
    const emails = addresses(120);
    const { sandbox, rows, stderr } = await cleanWith({ rejectRate: 0.3, seed: 20261122 }, emails);
    const stats = sandbox.stats();
    const rejected = expectVerdicts(rows, { reason: 'rejected_by_service', status: 'invalid' });
    // Each named 422 rejected exactly one address, never twice the same one.
    expect(stats.faults.rejected).toBeGreaterThan(0);
    expect(rejected).toHaveLength(stats.faults.rejected);
    // A 422 charges nothing: what was charged is exactly one per address that got a real verdict.
    expect(stats.addressesCharged).toBe(emails.length - rejected.length);
    expect(spentOf(stderr)).toEqual({ addresses: stats.addressesCharged, requests: stats.cleanRequests });
  });

  it('a 422 naming no address halves the batch down to single addresses, which are then rejected', async () => {
    const emails = addresses(4);
    const { sandbox, rows, stderr } = await cleanWith({ rejectUnnamedRate: 1 }, emails);
    for (const row of rows) expect(row).toMatchObject({ email_status: 'invalid', email_reason: 'rejected_by_service' });
    // 4 -> 2 + 2 -> 1 + 1 + 1 + 1: seven requests, all refused, nothing charged.
    expect(sandbox.stats()).toMatchObject({ cleanRequests: 7, addressesCharged: 0, faults: { rejectedUnnamed: 7 } });
    expect(stderr).toContain('nothing spent (7 requests sent)');
  });

  it('some unnamed 422s among answers: only addresses refused alone are rejected', async () => {
    const emails = addresses(100);
    const { sandbox, rows, stderr } = await cleanWith({ rejectUnnamedRate: 0.4, seed: 7 }, emails);
    const stats = sandbox.stats();
    const rejected = expectVerdicts(rows, { reason: 'rejected_by_service', status: 'invalid' });
    expect(stats.faults.rejectedUnnamed).toBeGreaterThan(0);
    expect(stats.addressesCharged).toBe(emails.length - rejected.length);
    expect(spentOf(stderr)).toEqual({ addresses: stats.addressesCharged, requests: stats.cleanRequests });
  });
});

describe('clean: the service leaves records out of its answer', () => {
  it('a record dropped twice comes out unknown/no_result; the rest get real verdicts', async () => {
    const emails = addresses(120);
    const { sandbox, rows, stderr } = await cleanWith({ dropRate: 1, seed: 5 }, emails);
    // Three batches (50, 50, 20) each lose one record; each lost address is asked again alone, and lost again.
    const unknown = expectVerdicts(rows, { reason: 'no_result', status: 'unknown' });
    expect(unknown).toHaveLength(3);
    // Every request was answered and charged whole, the second asks included.
    expect(sandbox.stats()).toMatchObject({
      cleanRequests: 6,
      cleaned: 6,
      addressesCharged: 123,
      faults: { dropped: 6 },
    });
    expect(spentOf(stderr)).toEqual({ addresses: 123, requests: 6 });
  });

  it('a record dropped once is asked again and gets its real verdict', async () => {
    const emails = addresses(500);
    const { sandbox, rows, stderr } = await cleanWith({ dropRate: 0.5, seed: 99 }, emails);
    const stats = sandbox.stats();
    const unknown = expectVerdicts(rows, { reason: 'no_result', status: 'unknown' });
    // Each drop loses one address. A drop from a first ask costs one more request of one address; a drop from
    // such a second ask is an unknown row. So the drops asked again are all drops but the unknown rows.
    const askedAgain = stats.faults.dropped - unknown.length;
    // Some second asks were answered (their addresses got real verdicts), some lost again.
    expect(askedAgain).toBeGreaterThan(unknown.length);
    expect(unknown.length).toBeGreaterThan(0);
    expect(stats.cleanRequests).toBe(Math.ceil(emails.length / 50) + askedAgain);
    expect(stats.addressesCharged).toBe(emails.length + askedAgain);
    expect(spentOf(stderr)).toEqual({ addresses: stats.addressesCharged, requests: stats.cleanRequests });
  });
});
