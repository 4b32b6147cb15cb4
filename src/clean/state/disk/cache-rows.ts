// A verdict as the cache's row keeps it, and back: the service's own words, its flags packed in one integer.
import { documentedStatus } from '../../verdict/service-words.js';
import type { Verdict } from '../../verdict/verdict.js';

export interface Row {
  status: string;
  flags: number;
  reason: string;
}

// valid, disposable, validDomain and the address's kind (free, role: see addressKind) in two bits each: 0 unknown
// (null; a kind stored before it was kept), 1 false, 2 true. The kind is kept so that a re-run need not ask the
// engine's lists about every address again.
const packFlag = (b: boolean | null, shift: number) => (b === null ? 0 : b ? 2 : 1) << shift;
const unpackFlag = (flags: number, shift: number): boolean | null => {
  const v = (flags >> shift) & 3;
  return v === 0 ? null : v === 2;
};

/** A verdict's flags as its row keeps them, with the address's kind (free, role). */
export const rowFlags = (v: Verdict, free: boolean | null, role: boolean | null): number =>
  packFlag(v.valid, 0) | packFlag(v.disposable, 2) | packFlag(v.validDomain, 4) | packFlag(free, 6) | packFlag(role, 8);

/** The cache keeps the service's own word; the verdict says it in mailclean's. Its time is given beside it. */
export function verdictOfRow(row: Row): Verdict {
  const valid = unpackFlag(row.flags, 0);
  // Answers stored before the kind was are given it by the verdict table, from the key.
  const free = unpackFlag(row.flags, 6);
  const role = unpackFlag(row.flags, 8);
  return {
    ...(free !== null && role !== null ? { free, role } : {}),
    key: '',
    status: documentedStatus(row.status, valid),
    serviceStatus: row.status,
    valid,
    disposable: unpackFlag(row.flags, 2),
    validDomain: unpackFlag(row.flags, 4),
    reason: row.reason,
    checkedAt: '',
  };
}
