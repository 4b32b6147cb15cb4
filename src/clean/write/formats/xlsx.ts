// An Excel workbook (.xlsx), streamed (exceljs): one sheet, the input's columns by name, then the results as
// typed cells (booleans as TRUE/FALSE, unknown as empty), so a list that came from Excel goes back to it.
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { RESULT_COLUMNS, verdictFields } from '../../verdict/verdict.js';
import { OutputColumns } from './columns.js';
import type { RowSink, SinkContext } from './row-sink.js';

type Workbook = import('exceljs').stream.xlsx.WorkbookWriter;
type Sheet = import('exceljs').Worksheet;

export function createSink({ layout, extras, stream }: SinkContext): RowSink {
  const columns = new OutputColumns(layout);
  // The workbook ends the stream it writes to; the output's owner closes (and commits) the file itself.
  const zip = new PassThrough();
  zip.pipe(stream, { end: false });
  let workbook: Workbook | undefined;
  let sheet: Sheet | undefined;
  return {
    reads: { raw: false, fields: 'all' },
    async start() {
      const { default: ExcelJS } = await import('exceljs');
      workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: zip, useStyles: false, useSharedStrings: false });
      sheet = workbook.addWorksheet('Cleaned');
      sheet.addRow([...columns.names, ...RESULT_COLUMNS, ...extras]).commit();
    },
    async row(_raw, fields, verdict, facts) {
      const values = [
        ...Object.values(columns.object(fields)),
        ...Object.values(verdictFields(verdict, extras, facts)),
      ];
      sheet!.addRow(values.map((v) => (v === null ? undefined : v))).commit();
    },
    async end() {
      sheet!.commit();
      const ended = once(zip, 'end');
      await workbook!.commit();
      await ended;
    },
  };
}
