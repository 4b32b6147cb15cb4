import type { InputEncoding } from './encodings.js';
import type { TypedCell } from './typed-cells.js';
import type { NumberFormat } from './workbook/styles.js';

export interface WorkbookLayout {
  sheet: string;
  sheets: string[];
  cellsFile: string;
  formats: NumberFormat[];
  formulasWithoutResult: number;
  /** Where the workbook and its parts are: a workbook written over it keeps every part but the sheet read. */
  parts: WorkbookParts;
}

export interface WorkbookParts {
  file: string;
  workbook: string;
  sheet: string;
  styles?: string;
}

export interface InputLayout {
  file: string;
  displayName: string;
  format: 'csv' | 'lines';
  delimiter: string;
  bom: boolean;
  /** Excel's `sep=;` first line as written (without its line ending): it named the delimiter; the writer keeps it. */
  sepLine?: string;
  bodyOffset: number;
  bodyLine: number;
  encoding: InputEncoding;
  encodingGuessed: boolean;
  lineEnding: '\n' | '\r\n';
  endsWithNewline: boolean;
  hasHeader: boolean;
  header: string[];
  headerRaw?: string;
  columnCount: number;
  strict: boolean;
  emailColumn: number;
  emailColumnName: string;
  /** Columns an earlier run of mailclean appended (0-based): left out of the output, which appends fresh ones. */
  ownColumns: number[];
  fingerprint: string;
  size: number;
  cleanup(): Promise<void>;
  workbook?: WorkbookLayout;
}

export interface InputRecord {
  line: number;
  /** The record's exact original text without its line terminator ('' when read without it, or as bytes). */
  raw: string;
  rawBytes?: Buffer;
  fields: string[];
  cells?: TypedCell[];
  eol: '\n' | '\r\n' | '';
}
