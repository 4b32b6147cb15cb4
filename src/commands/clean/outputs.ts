// What a run writes, whichever checker decided the rows: the write options the flags ask for, and each output's count.
import { Writable } from 'node:stream';
import type { OutputCount } from '../../clean/run/summary.js';
import type { ScanResult } from '../../clean/scan/scan.js';
import type { WriteOptions, WriteSummary } from '../../clean/write/write-rows.js';
import type { Factory } from '../../factory.js';
import type { CleanOptions } from './clean.js';

/** Where and how the rows are written, whichever checker decided them; a signal stops the writing cleanly. */
export function writeOptions(o: CleanOptions, f: Factory, scan: ScanResult): WriteOptions {
  const { format, output, backup, only, rejects } = o;
  return {
    format,
    output,
    backup,
    stdout: f.io.stdout,
    only,
    rejects,
    checked: scan.extracted > 0,
    signal: f.io.signals.stop,
  };
}

/**
 * A pass that writes nothing, for a run that ends without outputs but owes side files (--summary-json, --report,
 * the job summary) their counts; undefined when none is wanted, so a stop is not held up by a pass over the file.
 * Only a second signal interrupts it: the first already asked the run to stop, and this is how it stops.
 */
export function countOnly(o: CleanOptions, f: Factory, scan: ScanResult): WriteOptions | undefined {
  if (!o.summaryJson && !o.report && !f.io.env.GITHUB_STEP_SUMMARY) return undefined;
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  return {
    ...writeOptions(o, f, scan),
    output: undefined,
    rejects: undefined,
    backup: undefined,
    stdout: discard,
    signal: f.io.signals.abort,
  };
}

/** Each output with the rows it received, for the summary. */
export function outputCounts(o: CleanOptions, written: WriteSummary): OutputCount[] {
  const counts: OutputCount[] = [{ path: o.output?.given ?? '-', role: 'output', rows: written.written }];
  if (o.rejects) counts.push({ path: o.rejects.given, role: 'rejects', rows: written.rejected });
  return counts;
}
