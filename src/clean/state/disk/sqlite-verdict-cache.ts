// The verdict cache on one machine: SQLite (Node's own node:sqlite) in the data directory, one file per account
// and service. WAL mode: a run killed during a write loses at most the answers not yet committed, never the file.
import { statSync } from 'node:fs';
import { batches } from '../../../batches.js';
import { addressKind, type Verdict } from '../../verdict/verdict.js';
import {
  type AskedKeys,
  answerTime,
  type CacheStats,
  type FoundAnswer,
  statsDate,
  type VerdictCache,
} from '../verdict-cache.js';
import { rowFlags, verdictOfRow } from './cache-rows.js';
import { type Database, openDatabase, type Statement, transaction } from './sqlite-driver.js';

/** Addresses asked by one statement, between turns of the event loop: each batch and its text die young. */
const ASK_BATCH = 1_000;
/** Answers read by one statement, between turns of the event loop (the progress line moves, Ctrl-C is heard). */
const READ_PAGE = 5_000;

/** About the bytes an answer takes in the cache's file. */
const ANSWER_BYTES = 64;
/** Asked addresses fewer than the cache's answers by this factor are each found by key; more, the cache is read. */
const FEW = 6;

const COLUMNS = 'key, status, flags, reason, at';
type Row = [string, string, number, string, number];

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Keys written before keys were folded (dedupeKey) take the folded form once per file, the newer answer kept. */
function foldKeys(db: Database): void {
  if (Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version) >= 1) return;
  transaction(db, () =>
    db.exec(
      "INSERT INTO verdicts (key, status, flags, reason, at) SELECT lower(key), status, flags, reason, at FROM verdicts WHERE key GLOB '*[A-Z]*' ORDER BY at " +
        'ON CONFLICT (key) DO UPDATE SET status = excluded.status, flags = excluded.flags, reason = excluded.reason, at = excluded.at WHERE excluded.at >= verdicts.at;' +
        "DELETE FROM verdicts WHERE key GLOB '*[A-Z]*'; PRAGMA user_version = 1",
    ),
  );
}

export class SqliteVerdictCache implements VerdictCache {
  private readonly db: Database;
  private readonly insert: Statement;

  constructor(readonly path: string) {
    // Compact rows: the address is the key; times as integers; flags packed.
    this.db = openDatabase(
      path,
      'CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, status TEXT NOT NULL, flags INTEGER NOT NULL, reason TEXT NOT NULL, at INTEGER NOT NULL) WITHOUT ROWID',
    );
    foldKeys(this.db);
    this.insert = this.db.prepare(
      'INSERT OR REPLACE INTO verdicts (key, status, flags, reason, at) VALUES (?, ?, ?, ?, ?)',
    );
  }

  /**
   * A few addresses are each found by the cache's key (a descent each, in no order); many are met by reading the
   * cache once in its key order, keeping those asked. Reading the whole cache for a claim's thousand addresses made a
   * long run slower at every request; finding a million addresses one descent at a time is several times slower.
   */
  async lookup(keys: AskedKeys, since: number, found: FoundAnswer, stop?: AbortSignal): Promise<number> {
    // A new account's cache is empty: asking it a list's addresses would cost the list's size for nothing.
    if (this.db.prepare('SELECT 1 FROM verdicts LIMIT 1').get() === undefined) return 0;
    const tell = tellShared(found);
    return keys.size * FEW < this.entriesAbout()
      ? this.findEach(keys, since, tell, stop)
      : this.readAll(keys, since, tell, stop);
  }

  private async findEach(keys: AskedKeys, since: number, tell: (row: Row) => void, stop?: AbortSignal) {
    const answers = this.db.prepare(
      `SELECT ${COLUMNS} FROM verdicts WHERE key IN (SELECT value FROM json_each(?)) AND at >= ?`,
    );
    answers.setReturnArrays(true);
    let count = 0;
    for (const batch of batches(keys, ASK_BATCH)) {
      if (stop?.aborted) return count;
      const rows = answers.all(JSON.stringify(batch), since) as unknown as Row[];
      for (const row of rows) tell(row);
      count += rows.length;
      await turn();
    }
    return count;
  }

  /** Pages, not `iterate()`: Node 22's iterator keeps each row alive long enough for V8 to move it to its old space. */
  private async readAll(keys: AskedKeys, since: number, tell: (row: Row) => void, stop?: AbortSignal) {
    const answers = this.db.prepare(`SELECT ${COLUMNS} FROM verdicts WHERE key > ? AND at >= ? ORDER BY key LIMIT ?`);
    answers.setReturnArrays(true);
    let count = 0;
    for (let after = ''; !stop?.aborted; ) {
      const rows = answers.all(after, since, READ_PAGE) as unknown as Row[];
      for (const row of rows)
        if (keys.has(row[0])) {
          tell(row);
          count++;
        }
      if (rows.length < READ_PAGE) return count;
      after = rows[rows.length - 1]![0];
      await turn();
    }
    return count;
  }

  /** The cache's answers, about: its pages at the bytes an answer takes (bench/RESULTS.md), without a count's scan. */
  private entriesAbout(): number {
    const { page_count: pages } = this.db.prepare('PRAGMA page_count').get() as { page_count: number };
    const { page_size: size } = this.db.prepare('PRAGMA page_size').get() as { page_size: number };
    return (pages * size) / ANSWER_BYTES;
  }

  async store(verdicts: readonly Verdict[]): Promise<void> {
    transaction(this.db, () => {
      for (const v of verdicts) {
        const { free, role } = addressKind(v);
        this.insert.run(v.key, v.serviceStatus ?? v.status, rowFlags(v, free, role), v.reason, answerTime(v));
      }
    });
  }

  async stats(): Promise<CacheStats> {
    const row = this.db
      .prepare('SELECT count(*) AS entries, min(at) AS oldest, max(at) AS newest FROM verdicts')
      .get() as unknown as { entries: number; oldest: number | null; newest: number | null };
    this.db.exec('PRAGMA wal_checkpoint(PASSIVE)');
    return {
      entries: row.entries,
      oldest: statsDate(row.oldest),
      newest: statsDate(row.newest),
      bytes: this.fileBytes(),
    };
  }

  async clear(before?: number): Promise<number> {
    const result =
      before === undefined
        ? this.db.prepare('DELETE FROM verdicts').run()
        : this.db.prepare('DELETE FROM verdicts WHERE at < ?').run(before);
    this.db.exec('VACUUM');
    return Number(result.changes);
  }

  async close(): Promise<void> {
    this.db.close();
  }

  /** The file's size with its WAL's (answers not checkpointed yet). */
  private fileBytes(): number {
    const size = (suffix: string) => statSync(`${this.path}${suffix}`, { throwIfNoEntry: false })?.size ?? 0;
    return size('') + size('-wal');
  }
}

/** Tells each row's answer; answers alike but for their time share one verdict (see FoundAnswer). */
function tellShared(found: FoundAnswer): (row: Row) => void {
  const shared = new Map<string, Verdict>();
  return ([key, status, flags, reason, at]) => {
    const id = `${flags}\t${status}\t${reason}`;
    let verdict = shared.get(id);
    if (!verdict) shared.set(id, (verdict = verdictOfRow({ status, flags, reason })));
    found(key, verdict, at);
  };
}
