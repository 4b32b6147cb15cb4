import { basename } from 'node:path';
import { CliError } from '../../errors.js';
import type { OutputsRequest } from '../run/request.js';
import { type CellKey, keyOfCell } from '../scan/cell-key.js';
import { type InputLayout, readRecordBatches } from '../scan/input/index.js';
import type { DomainProviders } from '../verdict/domain-providers.js';
import { cellVerdict, type ExtraColumn, type RowFacts, uncheckedVerdict, type Verdict } from '../verdict/verdict.js';
import { AtomicFile, OutputError } from './atomic-file.js';
import { FORMATS } from './formats/index.js';
import { objectReceiver } from './formats/json.js';
import type { FormatModule, RowSink, SinkContext } from './formats/row-sink.js';
import type { OutputPath } from './output-path.js';
import { Tally } from './tally.js';

/** The run's outputs as its request names them, and what the run adds. */
export interface WriteOptions extends Omit<OutputsRequest, 'summaryJson' | 'report' | 'stepSummary'> {
  extraColumns?: readonly ExtraColumn[];
  checked?: boolean;
  /** --fix-typos: a fixed row's fix goes in email_fixed (`column`), or in its email cell (`replace`). */
  fixTypos?: 'column' | 'replace';
  signal?: AbortSignal;
  decide?: DecideRow;
  /** Every row has the header's field count (the scan of the same file found none ragged): see ReadOptions. */
  evenRows?: boolean;
  /** Each domain's mail provider, given to its rows' verdicts (email_provider). */
  providers?: DomainProviders;
  warn?(message: string): void;
}

export type WriteSummary = Awaited<ReturnType<typeof writeRows>>;

interface Target {
  sink: RowSink;
  file?: AtomicFile;
}

export type RowReceiver = (row: Record<string, unknown>) => Promise<void> | undefined;

export type DecideRow = (cell: string | undefined) => CellKey;

/** The verdict of a row's address (undefined: unchecked); asked once for each row with an address, in row order. */
export type AnswerFor = (key: string) => Verdict | undefined;

/** The write pass: every row in order with its verdict; files appear only when complete. */
export async function writeRows(layout: InputLayout, answerFor: AnswerFor, opts: WriteOptions) {
  const format = await FORMATS[opts.format].load();
  const context = sinkContext(layout, opts);
  const { replacesAddress } = context;
  const open = (target: OutputPath | undefined, backup?: string) => openTarget(format, context, opts, target, backup);
  const targets: Target[] = [];
  try {
    const main = await open(opts.output, opts.backup);
    targets.push(main);
    const rejects = opts.rejects !== undefined ? await open(opts.rejects) : undefined;
    if (rejects) targets.push(rejects);
    for (const t of targets) await t.sink.start();

    const summary = {
      rows: 0,
      written: 0,
      rejected: 0,
      tally: new Tally({ domains: opts.countDomains ?? true }),
    };
    const column = layout.emailColumn;
    const decide = opts.decide ?? keyOfCell;
    const keeps = keeper(opts.only);
    const { providers } = opts;
    const reads = { ...(main.sink.reads ?? { raw: true, fields: 'all' }), evenRows: opts.evenRows };
    for await (const batch of readRecordBatches(layout, reads)) {
      opts.signal?.throwIfAborted();
      for (const record of batch) {
        summary.rows++;
        const decided = decide(record.fields[column]);
        const { key } = decided;
        const answer = key === undefined ? decidedHere(decided.reason) : (answerFor(key) ?? uncheckedVerdict(key));
        const verdict = providers && key !== undefined ? providers.verdictOf(answer, key) : answer;
        const cell = record.fields[column];
        summary.tally.add(verdict, decided.fixed ?? cell, key ?? '');
        if (decided.fixed !== undefined) summary.tally.addFix(decided.checked ?? cell!, decided.fixed);
        const keep = keeps(verdict);
        const target = keep ? main : rejects;
        if (keep) summary.written++;
        else summary.rejected++;
        const { fixed } = decided;
        const facts = replacesAddress && fixed !== undefined ? replaced(record.fields, column, key!, fixed) : decided;
        const writing = target?.sink.row(record, verdict, facts);
        if (writing) await writing;
      }
    }
    for (const t of targets) await t.sink.end();
    for (const t of targets) await t.file?.commit();
    return summary;
  } catch (error) {
    for (const t of targets) t.file?.abort();
    throw failedTarget(error, targets, opts.output === undefined ? 'stdout' : undefined);
  }
}

/** What every sink of the run is told: the columns it appends, and how it writes the list's own cells. */
function sinkContext(layout: InputLayout, opts: WriteOptions): Omit<SinkContext, 'stream'> {
  const extras: ExtraColumn[] = [...(opts.extraColumns ?? []), ...(opts.checked ? (['email_checked'] as const) : [])];
  if (opts.fixTypos) extras.push(opts.fixTypos === 'replace' ? 'email_original' : 'email_fixed');
  return {
    layout,
    extras,
    escapeFormulas: opts.escapeFormulas ?? (layout.workbook !== undefined && opts.format === 'csv'),
    replacesAddress: opts.fixTypos === 'replace',
    warn: opts.warn ?? (() => undefined),
  };
}

/** --fix-typos=replace: the fix takes the email field's place, the cell as it was is kept as `original`. */
function replaced(fields: string[], column: number, key: string, fixed: string): RowFacts {
  const original = fields[column];
  fields[column] = fixed;
  // The cell is now the address itself: nothing was taken from inside it.
  return { key, fixed, original };
}

async function openTarget(
  format: FormatModule,
  context: Omit<SinkContext, 'stream'>,
  opts: WriteOptions,
  target: OutputPath | undefined,
  backup?: string,
): Promise<Target> {
  if (target === undefined && opts.rows) return { sink: objectReceiver(context, opts.rows) };
  if (target === undefined) return { sink: format.createSink({ ...context, stream: opts.stdout }) };
  const file = new AtomicFile(target, backup);
  await file.ready();
  return { sink: format.createSink({ ...context, stream: file.stream }), file };
}

/**
 * What --only keeps: a row whose status or reason is named (when any is), and whose provider is named (when any
 * `provider=NAME` is): `valid,risky,provider=google` keeps the valid and risky rows at Google.
 */
export function keeper(only: ReadonlySet<string> | undefined): (verdict: Verdict) => boolean {
  if (!only) return () => true;
  const terms = [...only];
  const providers = new Set(terms.flatMap((t) => (t.startsWith(PROVIDER_TERM) ? [t.slice(PROVIDER_TERM.length)] : [])));
  const words = new Set(terms.filter((t) => !t.startsWith(PROVIDER_TERM)));
  return (v) =>
    (words.size === 0 || words.has(v.status) || words.has(v.reason)) &&
    (providers.size === 0 || (v.provider !== undefined && providers.has(v.provider)));
}

const PROVIDER_TERM = 'provider=';

const DECIDED_HERE = new Map<string, Verdict>();

function decidedHere(reason: string): Verdict {
  let verdict = DECIDED_HERE.get(reason);
  if (!verdict) DECIDED_HERE.set(reason, (verdict = cellVerdict('', reason)));
  return verdict;
}

function failedTarget(error: unknown, targets: Target[], stdoutName?: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || code === 'ABORT_ERR' || error instanceof CliError) return error;
  const path = (error as NodeJS.ErrnoException).path;
  const hit = targets.find(
    (t) => t.file !== undefined && (path === undefined || path.includes(basename(t.file.target.path))),
  );
  const name = hit?.file?.target.given ?? (path === undefined ? stdoutName : undefined);
  return name === undefined ? error : new OutputError(name, error);
}
