// The record reader both passes of `clean` use: the fast reader, csv-parse where it cannot be sure, UTF-8 and NUL
// checked first. Records come in batches, so a pass awaits once a slice, not once a record.
import { UsageError } from '../../../errors.js';
import { FastRecordParser } from './fast-record-parser.js';
import type { InputLayout, InputRecord } from './index.js';
import { RecordParser, type RecordSource } from './record-parser.js';
import { badByteError, fileChunks, fileError } from './source.js';
import { CellsReader } from './typed-cells.js';
import { Utf8Checker } from './utf8.js';

const FEED_BYTES = 64 * 1024;

async function* batches(
  layout: InputLayout,
  options: Required<ReadOptions>,
): AsyncGenerator<InputRecord[], void, undefined> {
  const { feedBytes, raw: withRaw } = options;
  const start = layout.bodyOffset;
  const sheet = await sheetRows(layout, options.typed);
  const source = fileChunks(layout.file, start);
  const checker = new Utf8Checker(start);
  const parser: RecordSource =
    options.parser === 'fast' && FastRecordParser.handles(layout)
      ? new FastRecordParser(layout, withRaw, options.fields === 'all', options.evenRows)
      : new RecordParser(layout, withRaw !== false);
  let failure: Error | undefined;
  try {
    try {
      let offset = start;
      for await (const chunk of source) {
        // Bytes before an invalid sequence or a NUL are still parsed, so problems are reported in file order.
        const bad = checker.push(chunk);
        const nulIndex = chunk.indexOf(0);
        const nul = nulIndex < 0 ? -1 : offset + nulIndex;
        const stop = bad < 0 ? nul : nul < 0 ? bad : Math.min(bad, nul);
        const limit = stop >= 0 ? stop - offset : chunk.length;
        offset += chunk.length;
        // Small slices keep each batch small enough to die young.
        for (let at = 0; at < limit && !failure; at += feedBytes) {
          const err = parser.feed(chunk.subarray(at, Math.min(at + feedBytes, limit)));
          if (err) failure = parser.describe(err);
          failure = parser.failure ?? failure;
          const records = parser.takeBatch();
          if (records.length > 0) yield await sheet(records);
        }
        if (!failure && stop >= 0) failure = await badByteError(layout.file, layout.displayName, stop);
        if (failure) break;
      }
    } catch (err) {
      throw err instanceof UsageError ? err : fileError(layout.displayName, err);
    }
    if (!failure) failure = yield* endOfInput(layout, checker, parser, sheet);
    if (failure) throw failure;
  } finally {
    await source.return(undefined);
    sheet.close?.();
  }
}

type SheetRows = ((records: InputRecord[]) => Promise<InputRecord[]>) & { close?(): void };

async function sheetRows(layout: InputLayout, typed: boolean): Promise<SheetRows> {
  if (!layout.workbook) return async (records) => records;
  const reader = new CellsReader(layout.workbook.cellsFile);
  if (layout.hasHeader) {
    await reader.ensure(1);
    reader.take(false);
  }
  const attach: SheetRows = async (records) => {
    await reader.ensure(records.length);
    for (const record of records) {
      const row = reader.take(typed);
      if (!row) break;
      record.line = row.row;
      if (row.cells) record.cells = row.cells;
    }
    return records;
  };
  attach.close = () => reader.close();
  return attach;
}

async function* endOfInput(
  layout: InputLayout,
  checker: Utf8Checker,
  parser: RecordSource,
  sheet: SheetRows,
): AsyncGenerator<InputRecord[], Error | undefined, undefined> {
  const end = checker.end();
  if (end >= 0) return badByteError(layout.file, layout.displayName, end);
  const err = await parser.end();
  const records = parser.takeBatch();
  if (records.length > 0) yield await sheet(records);
  return parser.failure ?? (err ? parser.describe(err) : undefined);
}

export interface ReadOptions {
  /** Tests use tiny values to put chunk boundaries everywhere. */
  feedBytes?: number;
  /** Decode each record's text into `raw` (default true); 'bytes': a view of it in `rawBytes` until the next batch. */
  raw?: boolean | 'bytes';
  /** 'email': only the email column's field is decoded (`fields` keeps its length). Default 'all'. */
  fields?: 'all' | 'email';
  /** Every record has the layout's field count (a scan found none ragged): records are then found by their ends. */
  evenRows?: boolean;
  parser?: 'fast' | 'csv-parse';
  typed?: boolean;
}

function withDefaults(options: ReadOptions): Required<ReadOptions> {
  return {
    feedBytes: Math.max(1, Math.floor(options.feedBytes ?? FEED_BYTES)),
    raw: options.raw ?? true,
    fields: options.fields ?? 'all',
    parser: options.parser ?? 'fast',
    typed: options.typed ?? false,
    evenRows: options.evenRows ?? false,
  };
}

export function readRecordBatches(layout: InputLayout, options: ReadOptions = {}): AsyncIterable<InputRecord[]> {
  return { [Symbol.asyncIterator]: () => batches(layout, withDefaults(options)) };
}
