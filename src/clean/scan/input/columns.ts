// Which column holds the addresses: --column, a header that names it, or the values that look like addresses.
import { UsageError } from '../../../errors.js';
import { words } from '../../../verify/lists.js';
import { EXTRA_COLUMNS, RESULT_COLUMNS, VERDICT_COLUMNS } from '../../verdict/verdict.js';
import { HAS_ADDRESS, type SampleRecord } from './sniff.js';

/** Header names that mean "the email address", best first, normalised (`email1value`: Google's "E-mail 1 - Value"). */
const EMAIL_NAMES = words(`
  email emailaddress emailaddr emailid primaryemail primaryemailaddress email1value email1 emailaddress1 mailaddress
  mail emails workemail businessemail personalemail homeemail contactemail subscriberemail customeremail useremail
  courriel adressecourriel adresseemail correo correoelectronico emailadresse mailadresse epost epostadresse
`);

export function normaliseName(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

export function normaliseColumnFlag(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

export function columnLabel(header: readonly string[], index: number): string {
  const name = header[index]?.trim();
  return name ? name : `column ${index + 1}`;
}

export function listColumns(header: readonly string[], count: number): string {
  const shown = Math.min(count, 25);
  const names: string[] = [];
  for (let i = 0; i < shown; i++) names.push(columnLabel(header, i));
  return names.join(', ') + (count > shown ? `, and ${count - shown} more` : '');
}

/** The columns an earlier run appended (all six verdict names in the header, and the others then): replaced anew. */
export function ownColumns(header: readonly string[]): number[] {
  if (!VERDICT_COLUMNS.every((name) => header.includes(name))) return [];
  const ours = new Set<string>([...RESULT_COLUMNS, ...Object.keys(EXTRA_COLUMNS)]);
  return header.flatMap((name, i) => (ours.has(name) ? [i] : []));
}

function addressShare(rows: readonly SampleRecord[], col: number): number {
  let filled = 0;
  let like = 0;
  for (const r of rows) {
    const v = r.fields[col]?.trim();
    if (!v) continue;
    filled++;
    if (HAS_ADDRESS.test(v)) like++; // loose on purpose: malformed addresses still mark the column
  }
  return filled === 0 ? 0 : like / filled;
}

export interface ColumnChoice {
  index: number;
  name: string;
}

export interface ColumnQuestion {
  displayName: string;
  line: number;
  header: readonly string[];
  columnCount: number;
  rows: readonly SampleRecord[];
  column?: string;
  /** Columns an earlier run of mailclean appended: never the email column (`email_suggestion` holds addresses). */
  ours?: readonly number[];
}

export function chooseEmailColumn(q: ColumnQuestion): ColumnChoice {
  const index = q.column !== undefined ? flaggedColumn(q, q.column.trim()) : (namedColumn(q) ?? columnByContent(q));
  if (index === undefined) {
    throw new UsageError(
      `${q.displayName}:${q.line}: no email column found (columns: ${listColumns(q.header, q.columnCount)})`,
      'pass --column NAME or --column N',
    );
  }
  return { index, name: columnLabel(q.header, index) };
}

function flaggedColumn(q: ColumnQuestion, flag: string): number {
  const { displayName, header, columnCount } = q;
  let index: number;
  if (/^\d+$/.test(flag)) {
    index = Number(flag) - 1;
    if (index < 0 || index >= columnCount) {
      throw new UsageError(
        `--column ${flag}: ${displayName} has ${columnCount} column${columnCount === 1 ? '' : 's'} (${listColumns(header, columnCount)})`,
        `pass a number from 1 to ${columnCount}, or a column name`,
      );
    }
  } else {
    if (header.length === 0) {
      throw new UsageError(
        `--column ${flag}: ${displayName} has no header row, so columns have no names (${listColumns(header, columnCount)})`,
        'pass --column N with a column number',
      );
    }
    const want = normaliseColumnFlag(flag);
    index = want === '' ? -1 : header.findIndex((h) => normaliseColumnFlag(h) === want);
    if (index < 0) {
      throw new UsageError(
        `--column ${flag}: no such column in ${displayName} (columns: ${listColumns(header, columnCount)})`,
        'pass one of the column names, or --column N with a number',
      );
    }
  }
  if (q.ours?.includes(index)) {
    throw new UsageError(
      `--column ${flag}: ${columnLabel(header, index)} holds the results of an earlier run (they are replaced)`,
      'name the column that holds the addresses',
    );
  }
  refuseWithoutAddresses(q, flag, index);
  return index;
}

/** A --column with no address in the rows read (often counted from 0) would make every row invalid: refused. */
function refuseWithoutAddresses(q: ColumnQuestion, flag: string, index: number): void {
  if (q.rows.length === 0 || q.rows.some((r) => HAS_ADDRESS.test(r.fields[index] ?? ''))) return;
  const rows = q.rows.length === 1 ? 'the one row' : `the first ${q.rows.length} rows`;
  const other = namedColumn(q) ?? columnByContent(q);
  throw new UsageError(
    `--column ${flag}: "${columnLabel(q.header, index)}" holds no address in ${rows} of ${q.displayName}`,
    other !== undefined && other !== index
      ? `the addresses look to be in column ${other + 1} ("${columnLabel(q.header, other)}"): pass --column ${other + 1} (columns are counted from 1)`
      : `pass the column that holds the addresses (columns: ${listColumns(q.header, q.columnCount)})`,
  );
}

function namedColumn(q: ColumnQuestion): number | undefined {
  if (q.header.length === 0) return undefined;
  const ours = new Set(q.ours);
  let bestRank = Infinity;
  let bestIndex = -1;
  q.header.forEach((h, i) => {
    const rank = ours.has(i) ? -1 : EMAIL_NAMES.indexOf(normaliseName(h));
    if (rank >= 0 && rank < bestRank) {
      bestRank = rank;
      bestIndex = i;
    }
  });
  if (bestIndex >= 0) return bestIndex;
  const loose = q.header.findIndex(
    (h, i) => !ours.has(i) && normaliseName(h).includes('mail') && addressShare(q.rows, i) > 0.5,
  );
  return loose >= 0 ? loose : undefined;
}

function columnByContent(q: ColumnQuestion): number | undefined {
  // A headerless single column: its first value has an address in it, or it would have been taken for a header.
  if (q.columnCount === 1 && q.header.length === 0) return 0;
  const ours = new Set(q.ours);
  let best: number | undefined;
  let bestShare = 0.5;
  for (let i = 0; i < q.columnCount; i++) {
    const share = ours.has(i) ? 0 : addressShare(q.rows, i);
    if (share > bestShare) {
      best = i;
      bestShare = share;
    }
  }
  return best;
}
