// JSON (one array) and NDJSON (an object a line): each row's columns by name, then its results.

import type { InputRecord } from '../../scan/input/index.js';
import { type RowFacts, type Verdict, verdictFields } from '../../verdict/verdict.js';
import { ChunkedWriter } from '../atomic-file.js';
import type { RowReceiver } from '../write-rows.js';
import { OutputColumns } from './columns.js';
import type { RowSink, SinkContext } from './row-sink.js';

function objectSink({ layout, extras, stream }: SinkContext, lines: boolean): RowSink {
  const writer = new ChunkedWriter(stream);
  const columns = new OutputColumns(layout);
  let first = true;
  return {
    reads: { raw: false, fields: 'all', typed: true },
    start: () => writer.write(lines ? '' : '['),
    row(record, verdict, facts) {
      const line = JSON.stringify(rowObject(columns, extras, record, verdict, facts));
      if (lines) return writer.write(`${line}\n`);
      const prefix = first ? '\n' : ',\n';
      first = false;
      return writer.write(prefix + line);
    },
    async end() {
      if (!lines) await writer.write(first ? ']\n' : '\n]\n');
      await writer.flush();
    },
  };
}

export const json = { createSink: (ctx: SinkContext) => objectSink(ctx, false) };
export const ndjson = { createSink: (ctx: SinkContext) => objectSink(ctx, true) };

export function objectReceiver(
  { layout, extras }: Pick<SinkContext, 'layout' | 'extras'>,
  receive: RowReceiver,
): RowSink {
  const columns = new OutputColumns(layout);
  return {
    reads: { raw: false, fields: 'all', typed: true },
    start: async () => undefined,
    row: (record, verdict, facts) => receive(rowObject(columns, extras, record, verdict, facts)),
    end: async () => undefined,
  };
}

function rowObject(
  columns: OutputColumns,
  extras: SinkContext['extras'],
  { fields, cells }: InputRecord,
  verdict: Verdict,
  facts: RowFacts,
): Record<string, unknown> {
  // A longer row's fields past the header's come after the results, as in the other formats.
  return Object.assign(
    columns.object(fields, cells),
    verdictFields(verdict, extras, facts),
    columns.extra(fields, cells),
  );
}
