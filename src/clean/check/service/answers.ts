import { isObject, type Json, str } from '../../../api/shape.js';
import { documentedStatus } from '../../verdict/service-words.js';
import { cellVerdict, uncheckedVerdict, type Verdict } from '../../verdict/verdict.js';

/** By email, not by position; a service that lower-cases the address is matched too, where that is unambiguous. */
export function matchRecords(keys: string[], records: Json[]): Map<string, Json> {
  const byEmail = new Map<string, Json>();
  for (const record of records) {
    const email = str(record.email)?.trim();
    if (email && !byEmail.has(email)) byEmail.set(email, record);
  }
  const lowerCounts = new Map<string, number>();
  for (const key of keys) lowerCounts.set(key.toLowerCase(), (lowerCounts.get(key.toLowerCase()) ?? 0) + 1);
  const byLower = new Map<string, Json>();
  for (const [email, record] of byEmail)
    if (!byLower.has(email.toLowerCase())) byLower.set(email.toLowerCase(), record);

  const found = new Map<string, Json>();
  for (const key of keys) {
    const exact = byEmail.get(key);
    if (exact) found.set(key, exact);
    else if (lowerCounts.get(key.toLowerCase()) === 1) {
      const loose = byLower.get(key.toLowerCase());
      if (loose) found.set(key, loose);
    }
  }
  return found;
}

/** Addresses the answer left out are `missing`; left out twice (`missingBefore`), they are unknown (no_result). */
export function batchVerdicts(
  keys: string[],
  records: Json[],
  missingBefore: ReadonlySet<string>,
  now: string,
): { verdicts: Verdict[]; missing: string[] } {
  const found = matchRecords(keys, records);
  const verdicts: Verdict[] = [];
  const missing: string[] = [];
  for (const key of keys) {
    const record = found.get(key);
    if (record) verdicts.push(recordVerdict(key, record, now));
    else if (missingBefore.has(key))
      verdicts.push({ ...uncheckedVerdict(key), status: 'unknown', reason: 'no_result', checkedAt: now });
    else missing.push(key);
  }
  return { verdicts, missing };
}

/** The service's time where it is one (ISO text, or epoch seconds or ms): the cache ages the answer by it. */
const timeOf = (v: unknown): string | undefined => {
  const ms = typeof v === 'number' && v > 0 ? (v < 1e11 ? v * 1000 : v) : typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : undefined;
};

const bool = (v: unknown): boolean | null =>
  typeof v === 'boolean' ? v : v === 1 || v === 'true' ? true : v === 0 || v === 'false' ? false : null;

/** A service record (spec 2.10) as a verdict: its status in mailclean's words, the service's own word kept beside. */
export function recordVerdict(key: string, record: Json, fallbackTime: string): Verdict {
  const es = isObject(record.emailStatus)
    ? record.emailStatus
    : isObject(record.email_status)
      ? record.email_status
      : {};
  const valid = bool(es.valid);
  const disposable = bool(es.isDisposable ?? es.is_disposable);
  const validDomain = bool(es.isValidDomain ?? es.is_valid_domain);
  const word = str(es.status) ?? (valid === true ? 'valid' : valid === false ? 'invalid' : 'unknown');
  const status = documentedStatus(word, valid);
  const reason = str(es.reason) ?? derivedReason(status, word, disposable, validDomain);
  return {
    key,
    status,
    valid,
    disposable,
    validDomain,
    reason,
    checkedAt: timeOf(record.updatedAt) ?? timeOf(record.createdAt) ?? fallbackTime,
    serviceStatus: word,
  };
}

export type RecordReason = '' | 'invalid_domain' | 'disposable' | 'rejected' | 'catch_all' | 'role';

/**
 * The spec's record has no reason, only flags: one is named only where a flag says it. A `risky` or `unknown` answer
 * with no flag does not say why, and a made-up reason would mislead.
 */
function derivedReason(
  status: string,
  word: string,
  disposable: boolean | null,
  validDomain: boolean | null,
): RecordReason {
  if (status === 'valid') return '';
  if (validDomain === false) return 'invalid_domain';
  const plain = word.toLowerCase().replace(/[^a-z]/g, '');
  if (disposable === true || plain === 'disposable') return 'disposable';
  if (plain === 'catchall' || plain === 'acceptall') return 'catch_all';
  if (plain === 'role' || plain === 'rolebased') return 'role';
  return status === 'invalid' ? 'rejected' : '';
}

/** Addresses a 422 named as malformed. */
export function rejectedVerdicts(keys: string[], checkedAt: string): Verdict[] {
  return keys.map((key) => ({ ...cellVerdict(key, 'rejected_by_service'), checkedAt }));
}
