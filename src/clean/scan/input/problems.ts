// What is wrong with an input file, as the user reads it: one line naming the file and line, and a hint.
import { UsageError } from '../../../errors.js';
import type { InputLayout } from './index.js';

const QUOTE_HINT = 'a double quote that starts a field must end it too; double any quote inside it';

/** csv-parse's error, read the same while sniffing and reading; a too-long record spanning lines is an open quote. */
export function parseError(where: string, code: unknown, spansLines: () => boolean): UsageError | undefined {
  if (code === 'CSV_MAX_RECORD_SIZE' && !spansLines()) return new UsageError(`${where}: a record longer than 1 MiB`);
  if (code === 'CSV_MAX_RECORD_SIZE' || code === 'CSV_QUOTE_NOT_CLOSED')
    return new UsageError(`${where}: a quoted field is never closed`, QUOTE_HINT);
  return undefined;
}

/** Only with --strict: otherwise such a row is kept as it is. */
export function raggedError(layout: InputLayout, line: number, fields: number): UsageError {
  const where = `${layout.displayName}:${line}`;
  const has = layout.hasHeader ? 'the header has' : 'the first row has';
  return new UsageError(
    `${where}: ${fields} field${fields === 1 ? '' : 's'} where ${has} ${layout.columnCount}`,
    `a field containing ${delimiterName(layout.delimiter)}, a quote or a line break must be in double quotes; without --strict such rows are kept and counted`,
  );
}

export function delimiterName(d: string): string {
  return d === '\t' ? 'a tab' : `"${d}"`;
}

export function utf8Error(displayName: string, line: number, byte: number): UsageError {
  return new UsageError(
    `${displayName}:${line}: not valid UTF-8 (byte 0x${byte.toString(16).padStart(2, '0')})`,
    'save the file as UTF-8 (in a spreadsheet: "CSV UTF-8"), or name its encoding with --encoding',
  );
}

export function nulError(displayName: string, line: number): UsageError {
  return new UsageError(`${displayName}:${line}: contains a NUL byte`, 'this looks like a damaged text file');
}
