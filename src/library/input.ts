// What `clean` reads: a path, a stream of the file's bytes, or rows given by the program. A stream and rows are
// spooled first, as stdin is, because the run reads its list twice; rows are spooled as CSV.
import { Readable } from 'node:stream';
import { quote } from '../clean/write/formats/csv.js';
import { UsageError } from '../errors.js';
import type { CleanInput, InputRow } from './types.js';

export interface RunInput {
  input: string;
  stdin?: NodeJS.ReadableStream;
  name?: string;
}

export function runInput(given: CleanInput, name?: string): RunInput {
  if (typeof given === 'string') {
    if (given === '') throw new UsageError('input: give a path, a stream or rows');
    return { input: given };
  }
  if (given === null || typeof given !== 'object')
    throw new UsageError(`input: give a path, a stream, bytes or rows, not ${given === null ? 'null' : typeof given}`);
  if (given instanceof Uint8Array) return { input: '-', stdin: Readable.from([given]), name: name ?? 'buffer' };
  if (isWebStream(given)) return { input: '-', stdin: Readable.fromWeb(given as never), name: name ?? 'stream' };
  if (isNodeStream(given)) {
    const stream = given as Readable;
    // An object-mode stream (Readable.from(…) makes one) may carry bytes, text or rows: each chunk says which.
    const stdin = stream.readableObjectMode ? Readable.from(csvLines(stream, name ?? 'stream', 'text')) : stream;
    return { input: '-', stdin, name: name ?? 'stream' };
  }
  if (Symbol.asyncIterator in Object(given) || Symbol.iterator in Object(given)) {
    const rows = csvLines(given as AsyncIterable<InputRow>, name ?? 'rows', 'addresses');
    return { input: '-', stdin: Readable.from(rows), name: name ?? 'rows' };
  }
  throw new UsageError('input: give a path, a stream, or an iterable of rows');
}

const isWebStream = (value: object): boolean => typeof (value as ReadableStream).getReader === 'function';
const isNodeStream = (value: object): boolean =>
  typeof (value as Readable).pipe === 'function' && typeof (value as Readable).on === 'function';

/**
 * The rows as lines of CSV: objects under a header of the first one's keys (a key it lacks would have no column),
 * arrays as they are, strings one address a line (from a stream, the file's text), bytes as they are.
 */
async function* csvLines(
  rows: AsyncIterable<unknown> | Iterable<unknown>,
  name: string,
  strings: 'addresses' | 'text',
): AsyncGenerator<string | Uint8Array> {
  let header: string[] | undefined;
  let kind: string | undefined;
  let n = 0;
  for await (const row of rows) {
    n++;
    const rowKind = kindOf(row, strings);
    if (rowKind.startsWith('a '))
      throw new UsageError(`${name}: row ${n} is ${rowKind}: give objects, arrays of cells or addresses`);
    if (kind !== undefined && rowKind !== kind)
      throw new UsageError(`${name}: row ${n} is ${rowKind}, unlike the row before it (${kind})`);
    kind = rowKind;
    if (rowKind === 'bytes') {
      yield row as string | Uint8Array;
      continue;
    }
    let cells: readonly unknown[];
    if (typeof row === 'string') cells = [row];
    else if (Array.isArray(row)) cells = row;
    else {
      const record = row as Readonly<Record<string, unknown>>;
      if (header === undefined) {
        header = Object.keys(record);
        yield `${line(header, name, n)}\n`;
      }
      const unknown = Object.keys(record).find((key) => !header!.includes(key));
      if (unknown !== undefined)
        throw new UsageError(
          `${name}: row ${n} has "${unknown}", which the first row has not (its column needs a header)`,
        );
      cells = header.map((key) => record[key]);
    }
    yield `${line(cells, name, n)}\n`;
  }
}

function kindOf(row: unknown, strings: 'addresses' | 'text'): string {
  if (row instanceof Uint8Array || (typeof row === 'string' && strings === 'text')) return 'bytes';
  if (typeof row === 'string') return 'an address';
  if (Array.isArray(row)) return 'an array';
  if (typeof row === 'object' && row !== null) return 'an object';
  return `a ${typeof row}`;
}

function line(cells: readonly unknown[], name: string, n: number): string {
  return cells.map((cell) => quote(text(cell, name, n), ',')).join(',');
}

function text(cell: unknown, name: string, n: number): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'string') return cell;
  if (typeof cell === 'number' || typeof cell === 'boolean' || typeof cell === 'bigint') return String(cell);
  if (cell instanceof Date) return cell.toISOString();
  throw new UsageError(`${name}: row ${n} holds a ${typeof cell} where a cell's text is expected`);
}
