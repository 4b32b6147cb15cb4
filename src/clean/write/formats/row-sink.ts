// An output format is a sink of rows; adding one is a file and a line in index.ts.
import type { Writable } from 'node:stream';
import type { InputLayout, InputRecord } from '../../scan/input/index.js';
import type { ExtraColumn, RowFacts, Verdict } from '../../verdict/verdict.js';

export interface RowSink {
  /** What of each record the sink uses (see ReadOptions); default the text and every field. */
  readonly reads?: { raw: boolean | 'bytes'; fields: 'all' | 'email'; typed?: boolean };
  start(): Promise<void>;
  row(record: InputRecord, verdict: Verdict, facts: RowFacts): Promise<void> | undefined;
  end(): Promise<void>;
}

export interface SinkContext {
  layout: InputLayout;
  extras: readonly ExtraColumn[];
  stream: Writable;
  /** The input's own cells that would start a formula are neutralised (CSV; other formats hold no formulas). */
  escapeFormulas: boolean;
  /** --fix-typos=replace: a fixed row's email field holds its fix (and `RowFacts.original` the cell as it was). */
  replacesAddress?: boolean;
  warn(message: string): void;
}

export interface FormatModule {
  createSink(ctx: SinkContext): RowSink;
}
