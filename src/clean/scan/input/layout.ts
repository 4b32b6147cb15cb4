import type { InputEncoding } from './encodings.js';
import type { TypedCell } from './typed-cells.js';
import type { NumberFormat } from './workbook/styles.js';

/** An Excel workbook read as input: which sheet, and the cells of its rows that are not text. */
export interface WorkbookLayout {
  sheet: string;
  /** Every sheet's name, in tab order. */
  sheets: string[];
  /** Each spooled row's sheet row number and typed cells, one line a row (typed-cells.ts). */
  cellsFile: string;
  /** The number formats the typed cells refer to; 0 is General. */
  formats: NumberFormat[];
  /** Formula cells saved without their result, read as empty. */
  formulasWithoutResult: number;
  /** Where the workbook and its parts are: a workbook written over it keeps every part but the sheet read. */
  parts: WorkbookParts;
}

export interface WorkbookParts {
  /** The workbook file (stdin's copy, when it came through a pipe). */
  file: string;
  workbook: string;
  sheet: string;
  styles?: string;
}

export interface InputLayout {
  /** The file to read: the list, its spool, or its UTF-8 copy. */
  file: string;
  /** How messages name it: the user's path, or 'stdin'. */
  displayName: string;
  /** 'lines' = one address per line, no quoting. */
  format: 'csv' | 'lines';
  /** Sniffed among ',' ';' '\t' '|'; ',' for 'lines' (the delimiter a writer should use for appended columns). */
  delimiter: string;
  /** Input began with a BOM (the writer emits a UTF-8 one). */
  bom: boolean;
  /** Excel's `sep=;` first line as written (without its line ending): it named the delimiter; the writer keeps it. */
  sepLine?: string;
  /** Where the first record may start, after a BOM and a `sep=` line: byte offset and 1-based line. */
  bodyOffset: number;
  bodyLine: number;
  encoding: InputEncoding;
  /** Neither a BOM nor --encoding named it, and it was not UTF-8: it was read as Windows-1252. */
  encodingGuessed: boolean;
  /** The first line ending in the file ('\n' when there is none). */
  lineEnding: '\n' | '\r\n';
  endsWithNewline: boolean;
  hasHeader: boolean;
  /** Header fields ([] without a header). */
  header: string[];
  /** The header record's exact original text, without its line terminator. */
  headerRaw?: string;
  columnCount: number;
  /** Reading stops at the first row with another number of fields (else such rows are read like the others). */
  strict: boolean;
  emailColumn: number;
  /** Header name, or `column N`. */
  emailColumnName: string;
  /** Columns an earlier run of mailclean appended (0-based): left out of the output, which appends fresh ones. */
  ownColumns: number[];
  /** Digest of the size and the sample: names the list for the journal. */
  fingerprint: string;
  size: number;
  /** Removes the spooled copy, if any. */
  cleanup(): Promise<void>;
  /** The input was an Excel workbook (its rows are read from a CSV copy). */
  workbook?: WorkbookLayout;
}

export interface InputRecord {
  /** 1-based physical line where the record starts. */
  line: number;
  /** The record's exact original text without its line terminator ('' when read without it, or as bytes). */
  raw: string;
  /** The same text as UTF-8 bytes, when read with `raw: 'bytes'` by the fast reader. */
  rawBytes?: Buffer;
  fields: string[];
  /** A workbook's row: the cells that are not text (read with `typed`). */
  cells?: TypedCell[];
  /** The terminator that followed it in the input ('' for a last line without one). */
  eol: '\n' | '\r\n' | '';
}
