// The verdict cache on one machine: SQLite (Node's own node:sqlite) in the data directory, one file per account
// and service. WAL mode: a run killed during a write loses at most the answers not yet committed, never the file.
import { statSync } from 'node:fs';
import { batches } from '../../../batches.js';
import { addressKind, type Verdict } from '../../verdict/verdict.js';
import { answerTime, type CacheStats, type FoundAnswer, statsDate, type VerdictCache } from '../verdict-cache.js';
import { rowFlags, verdictOfRow } from './cache-rows.js';
import { type Database, openDatabase, type Statement, transaction } from './sqlite-driver.js';

/** Addresses asked by one statement: few enough that each batch and its text die young, not in V8's old space. */
const ASK_BATCH = 1_000;
/** Addresses asked, or answers read, between turns of the event loop (the progress line moves, Ctrl-C is heard). */
const PER_TURN = 20_000;
/** Answers read by one statement: a page's rows die young, as `ASK_BATCH`'s do. */
const READ_PAGE = 5_000;

/** About the bytes an answer takes in the cache's file. */
const ANSWER_BYTES = 64;
/** Asked addresses fewer than the cache's answers by this factor are each found by key; more, the cache is read. */
const FEW = 8;

/**
 * The two ways to join, each paged on its sixth column: a few addresses are each found by the cache's key (a
 * descent each, in no order); many are met by reading the cache once in its key order, each looked up in the
 * asked table's index. Reading the whole cache for a claim's thousand addresses made a long run slower at every
 * request; finding a million addresses one descent at a time is several times slower than reading the cache.
 */
const WALKS = {
  asked: {
    sql:
      'SELECT v.key, v.status, v.flags, v.reason, v.at, a.rowid FROM temp.asked a CROSS JOIN verdicts v ON v.key = a.key ' +
      'WHERE v.at >= ? AND a.rowid > ? ORDER BY a.rowid LIMIT ?',
    start: 0,
  },
  cache: {
    sql:
      'SELECT v.key, v.status, v.flags, v.reason, v.at, v.key FROM verdicts v CROSS JOIN temp.asked a ON a.key = v.key ' +
      'WHERE v.at >= ? AND v.key > ? ORDER BY v.key LIMIT ?',
    start: '',
  },
};
type Walk = (typeof WALKS)[keyof typeof WALKS];

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

  /** The addresses go into a temporary table; one JOIN then finds their answers (see WALKS). */
  async lookup(keys: Iterable<string>, since: number, found: FoundAnswer, stop?: AbortSignal): Promise<number> {
    // A new account's cache is empty: asking it a list's addresses would cost the list's size for nothing.
    if (this.db.prepare('SELECT 1 FROM verdicts LIMIT 1').get() === undefined) return 0;
    this.db.exec('DROP TABLE IF EXISTS temp.asked; CREATE TEMP TABLE asked (key TEXT NOT NULL)');
    try {
      const ask = this.db.prepare('INSERT INTO temp.asked (key) SELECT value FROM json_each(?)');
      let asked = 0;
      for (const batch of batches(keys, ASK_BATCH)) {
        ask.run(JSON.stringify(batch));
        if ((asked += batch.length) % PER_TURN === 0) await turn();
        if (stop?.aborted) return 0;
      }
      const walk = asked * FEW < this.entriesAbout() ? WALKS.asked : WALKS.cache;
      if (walk === WALKS.cache) this.db.exec('CREATE INDEX temp.asked_key ON asked (key)');
      return await this.readAnswers(walk, since, found, stop);
    } finally {
      this.db.exec('DROP TABLE IF EXISTS temp.asked');
    }
  }

  /** The answers for what `asked` holds; answers alike but for their time share one verdict (see FoundAnswer). */
  private async readAnswers(walk: Walk, since: number, found: FoundAnswer, stop?: AbortSignal): Promise<number> {
    // Pages, not `iterate()`: Node 22's iterator keeps each row alive long enough for V8 to move it to its old space.
    const answers = this.db.prepare(walk.sql);
    answers.setReturnArrays(true);
    const shared = new Map<string, Verdict>();
    let count = 0;
    let after: string | number = walk.start;
    for (;;) {
      const page = answers.all(since, after, READ_PAGE) as unknown as Array<
        [string, string, number, string, number, string | number]
      >;
      for (const [key, status, flags, reason, at] of page) {
        const id = `${flags}\t${status}\t${reason}`;
        let verdict = shared.get(id);
        if (!verdict) shared.set(id, (verdict = verdictOfRow({ status, flags, reason })));
        found(key, verdict, at);
      }
      count += page.length;
      if (page.length < READ_PAGE) return count;
      after = page[page.length - 1]?.[5] ?? after;
      if (count % PER_TURN === 0) await turn();
      if (stop?.aborted) return count;
    }
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
