// What is wrong with an input file, as the user reads it: one line naming the file and line, and a hint.
import { UsageError } from '../../../errors.js';
import type { InputLayout } from './index.js';

export const QUOTE_HINT = 'a double quote that starts a field must end it too; double any quote inside it';

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

/** The same wherever the NUL is: found while sniffing or while reading. */
export function nulError(displayName: string, line: number): UsageError {
  return new UsageError(`${displayName}:${line}: contains a NUL byte`, 'this looks like a damaged text file');
}
