// What `clean` tells its user: the dry-run report, the summary of a run, and the lines of a partial one.

import type { CheckOutcome } from '../../clean/check/outcome.js';
import type { PrecheckOutcome } from '../../clean/check/precheck.js';
import { MAX_BATCH } from '../../clean/check/service/send-batches.js';
import { minimumTime } from '../../clean/check/service/send-to-service.js';
import type { InputLayout } from '../../clean/scan/input/index.js';
import type { ScanResult } from '../../clean/scan/scan.js';
import type { KnownAllowance } from '../../clean/state/account-state.js';
import { formatRate, type Rate } from '../../config/rate.js';
import type { Factory } from '../../factory.js';
import { renderPairs } from '../../io/table.js';
import { formatCount, formatDuration, quantity } from '../../quantities.js';
import type { CleanOptions } from './clean.js';
import { reasonsText } from './precheck-step.js';

/** The file's shape after the scan, on stderr. */
export function reportScan(f: Factory, displayName: string, column: string, scan: ScanResult): void {
  f.io.note(
    `${displayName}: ${quantity(scan.rows, 'row')}, email column "${column}", ${quantity(scan.unique.size, 'unique address', 'unique addresses')}, ` +
      `${formatCount(scan.blank + scan.invalid)} blank or malformed`,
  );
  if (scan.extracted > 0) {
    const cells = scan.extracted === 1 ? 'email cell holds its address' : 'email cells hold their address';
    f.io.note(
      `${formatCount(scan.extracted)} ${cells} inside a name, a mailto: link or a " ::: " list: that address is checked ` +
        `(of several, the first well-formed one) and shown in the column email_checked.`,
    );
  }
}

/** Lines shown of the rows with more or fewer fields than the header. */
const RAGGED_SHOWN = 5;

/** Rows kept with another number of fields than the header: how many, and where, so the user can look. */
export function reportRagged(f: Factory, layout: InputLayout, scan: ScanResult): void {
  const { rows, lines } = scan.ragged;
  if (rows === 0) return;
  const shown = lines.slice(0, RAGGED_SHOWN).join(', ');
  const more = rows > RAGGED_SHOWN ? `, and ${formatCount(rows - RAGGED_SHOWN)} more` : '';
  const than = layout.hasHeader ? `the header (${layout.columnCount})` : `the first row (${layout.columnCount})`;
  f.io.warn(
    `${quantity(rows, 'row')} had more or fewer fields than ${than}: line${rows === 1 ? '' : 's'} ${shown}${more}; kept as they are (--strict refuses such a file)`,
  );
}

export interface DryRunFacts {
  /** Addresses an earlier run of this list already answered. */
  checked: { has(key: string): boolean };
  /** Of the others, how many the cache answers (within --max-age). */
  fromCache?: number;
  /** Of the rest, what the precheck decides for free (when it ran). */
  precheck?: PrecheckOutcome;
  /** The service's rate limit; absent when the built-in engine checks. */
  rate?: Rate;
  /** Whether an account is known (else no journal could be consulted). */
  signedIn?: boolean;
  allowance?: KnownAllowance;
}

/** `--dry-run`: what a run would send and spend, as pairs or `--json`. */
export function reportDryRun(f: Factory, o: CleanOptions, scan: ScanResult, facts: DryRunFacts): void {
  let already = 0;
  for (const key of scan.unique) if (facts.checked.has(key)) already++;
  const local = facts.rate === undefined;
  const fromCache = facts.fromCache ?? 0;
  const prechecked = facts.precheck?.decidedCount ?? 0;
  const toSend = local ? 0 : scan.unique.size - already - fromCache - prechecked;
  const spend = o.maxSpend !== undefined ? Math.min(o.maxSpend, toSend) : toSend;
  const requests = Math.ceil(spend / MAX_BATCH);
  const report = {
    checker: local ? 'local' : 'service',
    rows: scan.rows,
    blank: scan.blank,
    malformed: scan.invalid,
    duplicates: scan.duplicates,
    unique: scan.unique.size,
    alreadyChecked: already,
    answeredFromCache: fromCache,
    precheckSaves: prechecked,
    precheckReasons: Object.fromEntries(facts.precheck?.byReason ?? []),
    toSend: spend,
    requests,
    allowanceNeeded: spend,
    allowanceLeft: facts.allowance?.left ?? null,
    allowanceAsOf: facts.allowance?.asOf ?? null,
    rate: facts.rate ? formatRate(facts.rate) : null,
    minimumSeconds: facts.rate ? Math.round(minimumTime(requests, facts.rate) / 1000) : 0,
    ragged: scan.ragged,
    extracted: scan.extracted,
  };
  if (o.json !== undefined) {
    f.io.json(report, o.json, Object.keys(report));
    return;
  }
  const n = formatCount;
  const pairs: Array<[string, string]> = [
    ['Rows', n(report.rows)],
    ['Blank', n(report.blank)],
    ['Malformed', n(report.malformed)],
    ['Duplicates', n(report.duplicates)],
    ['Unique addresses', n(report.unique)],
  ];
  if (local) {
    // Signed in, --local keeps the service's answers and the engine checks the rest.
    if (facts.signedIn) pairs.push(['Already checked', n(already)], ['Answered from cache', n(fromCache)]);
    pairs.push([
      'Checked by',
      `the built-in engine, in-process: ${quantity(scan.unique.size - already - fromCache, 'address', 'addresses')}; nothing sent, no allowance spent`,
    ]);
  } else pairs.push(...servicePairs(o, facts, report, spend));
  f.io.out(renderPairs(pairs));
}

/** The dry run's lines about the service: what is answered already or for free, and what the rest costs. */
function servicePairs(
  o: CleanOptions,
  facts: DryRunFacts,
  report: {
    alreadyChecked: number;
    toSend: number;
    requests: number;
    allowanceNeeded: number;
    rate: string | null;
    minimumSeconds: number;
  },
  spend: number,
): Array<[string, string]> {
  const n = formatCount;
  const fromCache = facts.fromCache ?? 0;
  const left = facts.allowance;
  return [
    ['Already checked', facts.signedIn ? n(report.alreadyChecked) : '0 (not signed in: no journal to consult)'],
    [
      'Answered from cache',
      facts.signedIn
        ? `${n(fromCache)}${o.maxAgeMs > 0 ? '' : ' (--max-age 0: the cache is not read)'}`
        : '0 (not signed in: no cache to consult)',
    ],
    ['Precheck saves', precheckText(o, facts.precheck)],
    ['To send', n(report.toSend)],
    ['Requests', `${n(report.requests)} (at most ${MAX_BATCH} addresses each)`],
    ['Allowance needed', n(report.allowanceNeeded)],
    [
      'Allowance left',
      left
        ? `${allowanceText(left)}${left.left! < spend ? ` (${n(spend - left.left!)} would stay unchecked)` : ''}`
        : 'unknown (the service has not said yet)',
    ],
    [
      'Rate limit',
      `${report.rate} → ${report.minimumSeconds > 0 ? `at least ${formatDuration(report.minimumSeconds * 1000)}` : 'no wait (the requests fit in one window)'}`,
    ],
  ];
}

function precheckText(o: CleanOptions, outcome: PrecheckOutcome | undefined): string {
  if (!o.precheck) return '0 (--no-precheck: every address is sent)';
  if (!outcome) return '0 (nothing left to check)';
  if (outcome.unreachable !== undefined)
    return `0 (DNS does not answer: ${outcome.unreachable}; every address is sent)`;
  return outcome.decidedCount > 0
    ? `${formatCount(outcome.decidedCount)} (${reasonsText(outcome.byReason)}), decided here for free`
    : '0 (DNS and the lists leave every address to the service)';
}

/** "10 left as of 2026-11-22 14:03 UTC". */
export function allowanceText(known: KnownAllowance): string {
  return `${formatCount(known.left!)} left as of ${known.asOf.slice(0, 16).replace('T', ' ')} UTC`;
}

/** `partial:` and its hint, when rows stayed unchecked. */
export function reportPartial(f: Factory, unchecked: number, outcome: CheckOutcome): void {
  const why = (outcome.stopped?.message ?? 'some addresses were not checked').replace(/[.\s]+$/, '');
  f.io.say(
    `${f.io.style.yellow('partial:')} ${quantity(unchecked, 'row')} unchecked: ${why}${allowanceDetail(outcome)}.`,
  );
  f.io.say(`hint: ${partialHint(outcome)}`);
}

/** " (0 left; renews 2026-12-01)" when the service said. */
function allowanceDetail(outcome: CheckOutcome): string {
  if (outcome.stopped?.reason !== 'allowance' || !outcome.allowance) return '';
  const parts: string[] = [];
  if (outcome.allowance.left !== undefined) parts.push(`${formatCount(outcome.allowance.left)} left`);
  if (outcome.allowance.renewsAt) parts.push(`renews ${outcome.allowance.renewsAt.slice(0, 10)}`);
  return parts.length ? ` (${parts.join('; ')})` : '';
}

function partialHint(outcome: CheckOutcome): string {
  switch (outcome.stopped?.reason) {
    case 'allowance': {
      const when = outcome.allowance?.renewsAt ? `on ${outcome.allowance.renewsAt.slice(0, 10)}` : 'next month';
      return `a larger plan raises the monthly allowance; --local checks the rest now with the built-in engine; or run the same command with --resume after the allowance renews (${when}): nothing is paid twice.`;
    }
    case 'shared':
      return 'nothing was sent unbooked; when the shared Redis is back, run the same command with --resume to check the rest: nothing is paid twice.';
    case 'rate-limited':
      return 'mailclean kept to --rate, but the service counts differently or is busy: lower --rate (or wait), then run the same command with --resume: nothing is paid twice.';
    case 'max-spend':
      return 'run the same command with --resume (and a higher --max-spend) to check the rest: nothing is paid twice.';
    default:
      return 'run the same command with --resume later to check the rest: nothing is paid twice.';
  }
}

/** What an earlier run of this list already answered, when it did. */
export function noteResumed(f: Factory, already: number, unique: number): void {
  if (already > 0 && already === unique) {
    f.io.note(
      `All ${quantity(already, 'address', 'addresses')} were answered by an earlier run of this list: nothing is sent (--restart checks them again).`,
    );
  } else if (already > 0) {
    f.io.note(
      `Resuming: ${quantity(already, 'address', 'addresses')} already checked ${already === 1 ? 'is' : 'are'} not sent again.`,
    );
  }
}
