// Where an account's state lives in the data directory (MAILCLEAN_DATA_DIR): the one place that names its files.
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const hash = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex');

export type AccountFiles = ReturnType<typeof accountFiles>;

export function accountFiles(dataDir: string, account: string) {
  return {
    limiter: join(dataDir, 'limiter', `${account}.json`),
    cache: join(dataDir, 'cache', `${account}.sqlite`),
    allowance: join(dataDir, 'allowance', `${account}.json`),
    /** Lines of what was spent and when, `{"at": ISO time, "spent": n}`, appended as runs pay. */
    spend: join(dataDir, 'spend', `${account}.ndjson`),
    claims: join(dataDir, 'claims', `${account}.sqlite`),
    runs: join(dataDir, 'runs', `${account}.ndjson`),
    /** One journal per input and account: the same list cleaned again finds its earlier answers. */
    journal: (inputFingerprint: string) =>
      join(dataDir, 'journals', `${hash(account, inputFingerprint).slice(0, 40)}.ndjson`),
    /** The id is from the history's file, so it is encoded: no id names a file elsewhere. */
    inFlight: (runId: string) => join(dataDir, 'runs', `${account}.${encodeURIComponent(runId)}.inflight`),
  };
}
