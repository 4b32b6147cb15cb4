// `runs` as a table and `runs view` as labelled lines; times relative on a terminal, ISO 8601 in a pipe for scripts.
import { renderPairs, renderTable } from '../../io/table.js';
import { formatCount, formatDuration, quantity } from '../../quantities.js';
import type { RunJson } from './run-json.js';

export function runsTable(runs: readonly RunJson[], tty: boolean, now: number): string {
  const when = (iso: string) => (tty ? `${formatDuration(Math.max(0, now - Date.parse(iso)))} ago` : iso);
  const count = (n: number | null) => (n === null ? '-' : tty ? formatCount(n) : String(n));
  const rows = runs.map((run) => [
    run.id,
    run.list,
    when(run.startedAt),
    run.endedAt ? when(run.endedAt) : run.status,
    count(run.rows),
    count(run.spent),
    run.outcome ?? '-',
    outputsText(run) || '-',
  ]);
  return renderTable(['ID', 'LIST', 'STARTED', 'ENDED', 'ROWS', 'SPENT', 'OUTCOME', 'OUTPUTS'], rows, tty);
}

function outputsText(run: RunJson): string {
  return run.outputs.map((o) => (o.path === '-' ? 'stdout' : o.path)).join(', ');
}

export function runView(run: RunJson): string {
  const pairs: Array<[string, string]> = [
    ['Run', run.id],
    ['List', run.input === '-' ? run.list : `${run.list} (${run.input})`],
    ['Status', statusText(run)],
    ['Started', run.startedAt],
  ];
  if (run.resumedAt) pairs.push(['Resumed', run.resumedAt]);
  pairs.push(['Ended', run.endedAt ?? run.status]);
  pairs.push(['Rows', `${formatCount(run.rows)} (${formatCount(run.unique)} unique)`]);
  pairs.push(['Spent', spentText(run)]);
  if (run.inFlight) pairs.push(['In flight', inFlightText(run, run.inFlight)]);
  if (run.allowanceLeft !== null) pairs.push(['Allowance', `${formatCount(run.allowanceLeft)} left when it ended`]);
  lines(pairs, 'Statuses', statusLines(run));
  lines(
    pairs,
    'Outputs',
    run.outputs.map(
      (o) =>
        `${o.path === '-' ? 'stdout' : o.path} (${o.role}${o.rows === null ? '' : `, ${quantity(o.rows, 'row')}`})`,
    ),
  );
  if (run.message) pairs.push(['Message', run.message]);
  pairs.push(['Ran on', `${run.host}, process ${run.pid}`]);
  pairs.push(['Command', run.commandLine ?? '- (not started from the command line)']);
  return renderPairs(pairs);
}

function statusText(run: RunJson): string {
  if (run.status === 'running') return 'running';
  if (run.status === 'unfinished') return `unfinished: stopped before its end (\`mailclean runs resume ${run.id}\`)`;
  const resumable = run.resumable ? ` (\`mailclean runs resume ${run.id}\`)` : '';
  return `${run.outcome} (exit ${run.exitCode})${resumable}`;
}

function spentText(run: RunJson): string {
  if (run.checker === 'local') return 'nothing (the built-in engine)';
  if (run.spent === null) return '- (unknown: its journal is on another machine)';
  return `${quantity(run.spent, 'address', 'addresses')}${run.status === 'ended' ? '' : ' so far'}`;
}

/** Addresses sent whose answers the journal never got: the service may have billed them, beyond Spent. */
function inFlightText(run: RunJson, inFlight: number): string {
  const addresses = quantity(inFlight, 'address', 'addresses');
  if (run.status === 'running') return `${addresses} (sent, answers not journaled yet; not in Spent)`;
  const when = run.status === 'ended' ? 'when an attempt it continued stopped' : 'when it stopped';
  return `${addresses} ${when} (may have been billed; not in Spent)`;
}

function statusLines(run: RunJson): string[] {
  if (!run.statuses) return [];
  return Object.entries(run.statuses)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${status.padEnd(10)} ${formatCount(n).padStart(9)}`);
}

/** A label on its first value, the others under it. */
function lines(pairs: Array<[string, string]>, label: string, values: string[]): void {
  for (const [i, value] of values.entries()) pairs.push([i === 0 ? label : '', value]);
}
