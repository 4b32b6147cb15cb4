// A journal line holds one batch of answers: the batch's words once, then each answer as its key, its flags and indexes
// into the words. Release 0.1.0's `{"r":[verdict, ...]}` lines are still read, as journals outlive upgrades.
import { isObject } from '../../../api/shape.js';
import { addressKind, type Verdict } from '../../verdict/verdict.js';

/** The word-valued fields, in the order their indexes follow the key. */
const WORDS = ['status', 'reason', 'checkedAt', 'serviceStatus', 'suggestion', 'decidedBy'] as const;
/** The three-way fields (true, false, null or absent), packed into one base-3 number. */
const FLAGS = ['valid', 'disposable', 'validDomain', 'free', 'role'] as const;

export function batchLine(verdicts: readonly Verdict[]): string {
  const words: string[] = [];
  const indexOf = new Map<string, number>();
  const word = (value: string | undefined) => {
    if (value === undefined) return -1;
    let at = indexOf.get(value);
    if (at === undefined) {
      at = words.push(value) - 1;
      indexOf.set(value, at);
    }
    return at;
  };
  const rows = verdicts.map((v) => {
    const row: Array<string | number> = [v.key, packFlags(v)];
    for (const field of WORDS) row.push(word(v[field]));
    while (row.at(-1) === -1) row.pop();
    return row;
  });
  return JSON.stringify({ w: words, a: rows });
}

/** False when the line is not a batch of answers (damage). Answers alike share one verdict, its key empty. */
export function readBatchLine(entry: unknown, found: (key: string, verdict: Verdict) => void): boolean {
  if (!isObject(entry)) return false;
  if (Array.isArray(entry.r)) {
    if (!entry.r.every(isKeyedVerdict)) return false;
    for (const verdict of entry.r as Verdict[]) found(verdict.key, verdict);
    return true;
  }
  const { w: words, a: rows } = entry;
  if (!Array.isArray(words) || !words.every((w) => typeof w === 'string') || !Array.isArray(rows)) return false;
  const verdicts = sharedVerdicts(rows, words as string[]);
  if (!verdicts) return false;
  for (let i = 0; i < rows.length; i++) found((rows[i] as string[])[0]!, verdicts[i]!);
  return true;
}

const FIELDS_END = WORDS.length + 2;

/** Each row's verdict, rows alike sharing one (a batch's rows are mostly alike: the one before is tried first). */
export function sharedVerdicts(rows: unknown[], words: string[]): Verdict[] | undefined {
  const verdicts: Verdict[] = new Array(rows.length);
  const alike = new Map<string, Verdict>();
  let before: unknown[] | undefined;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (!Array.isArray(row) || typeof row[0] !== 'string' || row[0] === '' || !indexesOnly(row)) return undefined;
    if (before && sameFields(before, row)) {
      verdicts[i] = verdicts[i - 1]!;
      continue;
    }
    const alikeAs = row.slice(1, FIELDS_END).join();
    let verdict = alike.get(alikeAs);
    if (!verdict) {
      verdict = unpack(row, words);
      if (!verdict) return undefined;
      alike.set(alikeAs, verdict);
    }
    verdicts[i] = verdict;
    before = row;
  }
  return verdicts;
}

/** Fields that are indexes only (null stands for none): rows whose fields join alike are then alike. */
function indexesOnly(row: unknown[]): boolean {
  for (let i = 1; i < row.length && i < FIELDS_END; i++) if (row[i] !== null && !Number.isInteger(row[i])) return false;
  return true;
}

function sameFields(a: unknown[], b: unknown[]): boolean {
  const end = Math.min(a.length, FIELDS_END);
  if (Math.min(b.length, FIELDS_END) !== end) return false;
  for (let i = 1; i < end; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The address's kind is among the flags, so that a resumed run need not ask the engine's lists again. */
function packFlags(v: Verdict): number {
  const withKind: Verdict = v.free === undefined ? { ...v, ...knownKind(v) } : v;
  let packed = 0;
  for (const field of FLAGS) packed = packed * 3 + (withKind[field] === true ? 1 : withKind[field] === false ? 0 : 2);
  return packed;
}

function knownKind(v: Verdict): { free?: boolean; role?: boolean } {
  const { free, role } = addressKind(v);
  return free === null || role === null ? {} : { free, role };
}

function unpack(row: unknown[], words: string[]): Verdict | undefined {
  if (!Number.isInteger(row[1])) return undefined;
  const fields: Record<string, unknown> = { key: '' };
  let packed = row[1] as number;
  for (let i = FLAGS.length - 1; i >= 0; i--) {
    const code = packed % 3;
    packed = Math.floor(packed / 3);
    const field = FLAGS[i]!;
    if (code < 2) fields[field] = code === 1;
    else if (field !== 'free' && field !== 'role') fields[field] = null;
  }
  for (let i = 0; i < WORDS.length; i++) {
    const at = (row[i + 2] ?? -1) as number;
    if (at === -1) continue;
    if (!Number.isInteger(at) || words[at] === undefined) return undefined;
    fields[WORDS[i]!] = words[at];
  }
  return isVerdict(fields) ? fields : undefined;
}

const threeWay = (v: unknown) => v === null || typeof v === 'boolean';

const isKeyedVerdict = (v: unknown) => isVerdict(v) && v.key !== '';

function isVerdict(v: unknown): v is Verdict {
  return (
    isObject(v) &&
    typeof v.key === 'string' &&
    typeof v.status === 'string' &&
    threeWay(v.valid) &&
    threeWay(v.disposable) &&
    threeWay(v.validDomain) &&
    typeof v.reason === 'string' &&
    typeof v.checkedAt === 'string'
  );
}
