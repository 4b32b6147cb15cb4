// --dry-run: what is known already, what the precheck decides for free, and what the rest would cost.

import { formatRate } from '../../config/rate.js';
import { MAX_BATCH } from '../check/service/send-batches.js';
import { KeysExcept } from '../scan/keys-except.js';
import type { ScanResult } from '../scan/scan.js';
import type { Checker, KnownSources } from './checker.js';
import { precheckPending, readCache } from './known-answers.js';
import type { CleanRequest } from './request.js';

/** What `--dry-run --json` prints (docs/json.md): field names are stable. */
export type DryRunFields = DryRunReport['fields'];

export type DryRunReport = Awaited<ReturnType<typeof dryRunReport>>;

export async function dryRunReport(request: CleanRequest, checker: Checker, scan: ScanResult, known: KnownSources) {
  const unanswered = new KeysExcept(scan.unique, known.journaled);
  const { fromCache, lost } = await readCache(request, known, scan, unanswered, (key) => unanswered.exclude(key));
  if (lost) throw lost;
  // The precheck costs nothing, so the dry run runs it: what it decides is what a run would not pay for.
  const precheck = await precheckPending(request, checker, { emit: () => undefined }, unanswered);
  const cost = checker.cost?.();
  const already = known.journaled.size;
  const prechecked = precheck?.decidedCount ?? 0;
  const toSend = cost ? scan.unique.size - already - fromCache - prechecked : 0;
  const spend = cost?.maxSpend !== undefined ? Math.min(cost.maxSpend, toSend) : toSend;
  const requests = Math.ceil(spend / MAX_BATCH);
  const fields = {
    checker: checker.kind,
    rows: scan.rows,
    blank: scan.blank,
    malformed: scan.invalid,
    duplicates: scan.duplicates,
    unique: scan.unique.size,
    alreadyChecked: already,
    answeredFromCache: fromCache,
    precheckSaves: prechecked,
    precheckReasons: Object.fromEntries(precheck?.byReason ?? []),
    toSend: spend,
    requests,
    allowanceNeeded: spend,
    allowanceLeft: cost?.allowance?.left ?? null,
    allowanceAsOf: cost?.allowance?.asOf ?? null,
    rate: cost ? formatRate(cost.rate) : null,
    minimumSeconds: cost ? Math.round((await cost.waitFor(requests)) / 1000) : 0,
    ragged: scan.ragged,
    extracted: scan.extracted,
    // Only with --fix-typos, so that the report of a run without it keeps its fields.
    ...(request.fixTypos ? { fixed: scan.fixed } : {}),
  };
  return {
    fields,
    signedIn: known.signedIn,
    /** The precheck's outcome; 'off' when the checker pays and --no-precheck turned it off. */
    precheck: cost && !checker.precheck ? ('off' as const) : precheck,
    allowance: cost?.allowance,
    rate: cost?.rate,
    cacheRead: request.maxAgeMs > 0,
  };
}
