// JSON (one array) and NDJSON (one object per line): each row's columns keyed by name, then its results (a workbook's
// numbers and booleans typed, its dates as ISO text).

import { verdictFields } from '../../verdict/verdict.js';
import { ChunkedWriter } from '../atomic-file.js';
import { OutputColumns } from './columns.js';
import type { RowSink, SinkContext } from './row-sink.js';

function objectSink({ layout, extras, stream }: SinkContext, lines: boolean): RowSink {
  const writer = new ChunkedWriter(stream);
  const columns = new OutputColumns(layout);
  let first = true;
  return {
    reads: { raw: false, fields: 'all', typed: true },
    start: () => writer.write(lines ? '' : '['),
    row({ fields, cells }, verdict, facts) {
      const object = Object.assign(columns.object(fields, cells), verdictFields(verdict, extras, facts));
      // A longer row's fields past the header's come after the results, as in the other formats.
      const line = JSON.stringify(Object.assign(object, columns.extra(fields, cells)));
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
