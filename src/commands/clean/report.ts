// What `clean` tells its user at the end: the dry-run report, the summary of a run, and the lines of a partial one.
import type { CheckOutcome } from '../../clean/check/outcome.js';
import type { PrecheckOutcome } from '../../clean/check/precheck.js';
import { MAX_BATCH } from '../../clean/check/service/send-batches.js';
import type { DryRunReport } from '../../clean/run/dry-run.js';
import { crossingText, type Ended } from '../../clean/run/finish-run.js';
import type { RunSummary } from '../../clean/run/summary.js';
import type { Factory } from '../../factory.js';
import { renderPairs, renderTable } from '../../io/table.js';
import { formatCount, formatDuration, quantity } from '../../quantities.js';
import { barChart } from './charts.js';
import type { CleanFlags } from './clean.js';
import { allowanceText } from './questions.js';
import { reasonsText } from './render.js';

/** `--dry-run`: what a run would send and spend, as pairs or `--json`. */
export function reportDryRun(f: Factory, o: CleanFlags, dry: DryRunReport): void {
  const { fields } = dry;
  if (o.json !== undefined) {
    f.io.json(fields, o.json, Object.keys(fields));
    return;
  }
  const n = formatCount;
  const pairs: Array<[string, string]> = [
    ['Rows', n(fields.rows)],
    ['Blank', n(fields.blank)],
    ['Malformed', n(fields.malformed)],
    ['Duplicates', n(fields.duplicates)],
    ['Unique addresses', n(fields.unique)],
  ];
  if (fields.fixed !== undefined) pairs.push(['Typos fixed', `${quantity(fields.fixed, 'row')} checked as their fix`]);
  if (fields.checker === 'local') {
    // Signed in, --local keeps the service's answers and the engine checks the rest.
    if (dry.signedIn)
      pairs.push(['Already checked', n(fields.alreadyChecked)], ['Answered from cache', n(fields.answeredFromCache)]);
    const checked = fields.unique - fields.alreadyChecked - fields.answeredFromCache;
    pairs.push([
      'Checked by',
      `the built-in engine, in-process: ${quantity(checked, 'address', 'addresses')}; nothing sent, no allowance spent`,
    ]);
  } else pairs.push(...servicePairs(dry));
  f.io.out(renderPairs(pairs));
}

/** The dry run's lines about the service: what is answered already or for free, and what the rest costs. */
function servicePairs(dry: DryRunReport): Array<[string, string]> {
  const { fields } = dry;
  const n = formatCount;
  const left = dry.allowance;
  const notSignedIn = (what: string) => `0 (not signed in: no ${what} to consult)`;
  const wait =
    fields.minimumSeconds > 0
      ? `at least ${formatDuration(fields.minimumSeconds * 1000)}`
      : 'no wait (the requests fit in one window)';
  // Used up, the run asks the service with one address first: a plan upgraded or renewed since lets the rest go.
  const asks = left?.left === 0 ? ' unless the service now allows more (a run asks it first)' : '';
  const short =
    left && left.left! < fields.toSend ? ` (${n(fields.toSend - left.left!)} would stay unchecked${asks})` : '';
  return [
    ['Already checked', dry.signedIn ? n(fields.alreadyChecked) : notSignedIn('journal')],
    [
      'Answered from cache',
      dry.signedIn
        ? `${n(fields.answeredFromCache)}${dry.cacheRead ? '' : ' (--max-age 0: the cache is not read)'}`
        : notSignedIn('cache'),
    ],
    ['Precheck saves', precheckText(dry.precheck)],
    ['To send', n(fields.toSend)],
    ['Requests', `${n(fields.requests)} (at most ${MAX_BATCH} addresses each)`],
    ['Allowance needed', n(fields.allowanceNeeded)],
    ['Allowance left', left ? `${allowanceText(left)}${short}` : 'unknown (the service has not said yet)'],
    ['Rate limit', `${fields.rate} → ${wait}`],
  ];
}

function precheckText(outcome: PrecheckOutcome | 'off' | undefined): string {
  if (outcome === 'off') return '0 (--no-precheck: every address is sent)';
  if (!outcome) return '0 (nothing left to check)';
  const skipped =
    outcome.unreachable === undefined ? '' : `; domain checks skipped: DNS does not answer (${outcome.unreachable})`;
  return outcome.decidedCount > 0
    ? `${formatCount(outcome.decidedCount)} (${reasonsText(outcome.byReason)}), decided here for free${skipped}`
    : `0 (DNS and the lists leave every address to the service${skipped})`;
}

/** `partial:` and its hint, when rows stayed unchecked. */
function reportPartial(f: Factory, unchecked: number, outcome: CheckOutcome): void {
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
      return `a larger plan raises the monthly allowance (after an upgrade, --resume goes on at once); --local checks the rest now with the built-in engine; or run the same command with --resume after the allowance renews (${when}): nothing is paid twice.`;
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

/** The end of a run: the summary on stderr, why rows stayed unchecked, the --fail-when conditions that held. */
export function reportEnd(f: Factory, o: CleanFlags, ended: Ended): void {
  if (!ended.summary || ended.kind === 'interrupted') return;
  printSummary(f, o, ended.summary);
  if (ended.summary.unchecked.rows > 0) reportPartial(f, ended.summary.unchecked.rows, ended.outcome);
  for (const c of ended.crossed) {
    f.io.say(`${f.io.style.red('fail-when:')} ${c.threshold.name} is ${crossingText(c)} (${c.threshold.text})`);
  }
}

function printSummary(f: Factory, o: CleanFlags, s: RunSummary): void {
  if (f.io.quiet) return;
  if (f.io.isStderrTTY) f.io.stderr.write(barChart(s, f.io.style));
  else {
    const rows = Object.entries(s.statuses).map(([status, n]) => [
      status,
      formatCount(n),
      `${((100 * n) / Math.max(1, s.rows)).toFixed(1)}%`,
    ]);
    f.io.stderr.write(renderTable(['STATUS', 'ROWS', 'SHARE'], rows, false));
  }
  const [main, rejects] = s.outputs;
  const { backup, only } = o.request.outputs;
  const kept = backup ? ` (the original kept as ${backup})` : '';
  const where = `${quantity(main!.rows, 'row')} written to ${main!.path === '-' ? 'stdout' : main!.path}${kept}`;
  const rest = rejects
    ? `, ${quantity(rejects.rows, 'row')} to ${rejects.path}`
    : only
      ? `, ${quantity(s.rows - main!.rows, 'row')} left out by --only`
      : '';
  const retried = s.retries ? ` (${quantity(s.retries, 'retry', 'retries')})` : '';
  const spent =
    s.spent > 0
      ? `; spent ${quantity(s.spent, 'address', 'addresses')} in ${quantity(s.requests, 'request')}${retried}`
      : s.requests > 0
        ? `; nothing spent (${quantity(s.requests, 'request')} sent${retried})`
        : s.checker === 'local'
          ? ''
          : '; nothing spent';
  const saved =
    s.precheck && s.precheck.saved > 0
      ? `; the precheck saved ${quantity(s.precheck.saved, 'address', 'addresses')} of the allowance`
      : '';
  f.io.say(`${where}${rest}${spent}${saved}.`);
  const providers = Object.entries(s.providers);
  if (providers.length > 0)
    f.io.say(`Rows by mail provider: ${providers.map(([name, rows]) => `${name} ${formatCount(rows)}`).join(', ')}.`);
  if (s.fixes) f.io.say(fixesText(s.fixes));
}

const FIXES_SHOWN = 5;

/** `Typos fixed: 12 rows (gmial.com → gmail.com 7, hotmial.com → hotmail.com 5).` */
export function fixesText(fixes: NonNullable<RunSummary['fixes']>): string {
  const pairs = Object.entries(fixes.domains);
  const shown = pairs.slice(0, FIXES_SHOWN).map(([pair, rows]) => `${pair} ${formatCount(rows)}`);
  if (pairs.length > FIXES_SHOWN) shown.push(`and ${formatCount(pairs.length - FIXES_SHOWN)} more`);
  return `Typos fixed: ${quantity(fixes.rows, 'row')}${shown.length > 0 ? ` (${shown.join(', ')})` : ''}.`;
}
