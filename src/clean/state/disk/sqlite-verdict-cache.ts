// The verdict cache on one machine: SQLite (Node's own node:sqlite) in the data directory, one file per account
// and service. WAL mode: a run killed during a write loses at most the answers not yet committed, never the file.
import { closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { batches, KEY_BATCH } from '../../../batches.js';
import { addressKind, type Verdict } from '../../verdict/verdict.js';
import {
  type CacheStats,
  type FoundAnswer,
  type FoundNumbered,
  type KeySet,
  sharedAtTime,
  type VerdictCache,
} from '../verdict-cache.js';
import { readEarly, worthReadingEarly } from './cache-early-read.js';
import { type PassReader, passPages } from './cache-pass.js';
import { answerRow, type Row, rowFlags, verdictOfRow } from './cache-rows.js';
import { type Database, openDatabase, type Statement } from './sqlite-driver.js';

/**
 * A full pass for a count reads this many addresses at a time (a pass for answers: cache-pass.ts). (200,000 a page held each page's strings long enough to reach
 * V8's old space: a dry run of 10M rows all in the cache peaked at 377 MB, 254 MB at this size, for 16% more CPU.)
 */
const SCAN_PAGE = 50_000;
/**
 * A read of the cache gives the event loop a turn between its pages and batches (the progress line moves, a Ctrl-C
 * is heard): at 10M addresses the read takes a minute. A stop ends it there; what was found so far stands.
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const isKeySet = (keys: Iterable<string>): keys is KeySet => 'has' in keys && 'size' in keys;

/**
 * Keys written before local parts were folded (dedupeKey) kept their capital letters: once per file (user_version 1),
 * they take the folded form, the newer answer kept where two meet (a domain is lower-case already, so lower() of the
 * key folds its local part only, A-Z as dedupeKey does).
 */
function foldKeys(db: Database): void {
  if (Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version) >= 1) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(
      "INSERT INTO verdicts (key, status, flags, reason, at) SELECT lower(key), status, flags, reason, at FROM verdicts WHERE key GLOB '*[A-Z]*' ORDER BY at " +
        'ON CONFLICT (key) DO UPDATE SET status = excluded.status, flags = excluded.flags, reason = excluded.reason, at = excluded.at WHERE excluded.at >= verdicts.at;' +
        "DELETE FROM verdicts WHERE key GLOB '*[A-Z]*'; PRAGMA user_version = 1",
    );
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

export class SqliteVerdictCache implements VerdictCache {
  private readonly db: Database;
  private readonly insert: Statement;
  private readonly batchLookup: Statement;
  /** A pass begun before the run wanted it (readAhead). */
  private early?: PassReader;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // The answers are the account's: the file is created private (SQLite gives its -wal and -shm the same mode).
    closeSync(openSync(path, 'a', 0o600));
    // Compact rows: the address is the key; times as integers; flags packed.
    this.db = openDatabase(
      path,
      'CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, status TEXT NOT NULL, flags INTEGER NOT NULL, reason TEXT NOT NULL, at INTEGER NOT NULL) WITHOUT ROWID',
    );
    foldKeys(this.db);
    this.insert = this.db.prepare(
      'INSERT OR REPLACE INTO verdicts (key, status, flags, reason, at) VALUES (?, ?, ?, ?, ?)',
    );
    this.batchLookup = this.lookupStatement(KEY_BATCH);
  }

  private lookupStatement(n: number): Statement {
    return this.db.prepare(
      `SELECT key, status, flags, reason, at FROM verdicts WHERE at >= ? AND key IN (${Array(n).fill('?').join(',')})`,
    );
  }

  /**
   * A list that may be a good part of the cache is about to be scanned: a worker starts reading the cache for
   * lookupAll now, on the other core, some pages ahead (cache-pass.ts).
   */
  readAhead(since: number, listBytes: number, spillDir: string): void {
    if (this.early || !worthReadingEarly(this.fileBytes(), listBytes)) return;
    this.early = readEarly({ path: this.path, since }, spillDir);
  }

  async lookup(keys: Iterable<string>, since: number): Promise<Map<string, Verdict>> {
    const found = new Map<string, Verdict>();
    const timed = sharedAtTime();
    await this.lookupEach(keys, since, (key, verdict, time) => found.set(key, timed(verdict, time)));
    return found;
  }

  async lookupEach(keys: Iterable<string>, since: number, found: FoundAnswer, stop?: AbortSignal): Promise<number> {
    if (isKeySet(keys)) {
      const all = await this.lookupAll(keys, since, found, stop);
      if (all !== undefined) return all;
    }
    // Answers alike but for their time share one verdict (see FoundAnswer).
    const shared = new Map<string, Verdict>();
    let count = 0;
    for (const batch of batches(keys)) {
      const statement = batch.length === KEY_BATCH ? this.batchLookup : this.lookupStatement(batch.length);
      for (const row of statement.all(since, ...batch) as unknown as Row[]) {
        const id = `${row.flags}\t${row.status}\t${row.reason}`;
        let verdict = shared.get(id);
        if (!verdict) shared.set(id, (verdict = verdictOfRow(row)));
        found(row.key, verdict, row.at);
        count++;
      }
      await turn();
      if (stop?.aborted) break;
    }
    return count;
  }

  /** A list asking about a third of the cache or more: one pass costs less than lookups (see passEach). */
  async lookupAll(
    keys: KeySet,
    since: number,
    found: FoundAnswer,
    stop?: AbortSignal,
    numbered?: FoundNumbered,
  ): Promise<number | undefined> {
    const total = this.total();
    if (total > 0 && keys.size * 3 >= total) return await this.passEach(keys, since, total, found, stop, numbered);
    await this.endReadAhead();
    return total === 0 ? 0 : undefined;
  }

  /**
   * lookupEach for a list that is a good part of the cache: one pass over the file in key order, read by a worker
   * thread (cache-pass.ts) while this one matches each page's addresses against the list by their bytes.
   */
  private async passEach(
    keys: KeySet,
    since: number,
    total: number,
    found: FoundAnswer,
    stop?: AbortSignal,
    numbered?: FoundNumbered,
  ): Promise<number> {
    const verdicts: Verdict[] = [];
    let count = 0;
    const early = this.early;
    this.early = undefined;
    for await (const page of passPages(total, { path: this.path, since, stop }, early)) {
      for (const [code, fields] of page.newCodes) verdicts[code] = verdictOfRow(answerRow(fields));
      const text = Buffer.from(page.bytes.buffer, page.bytes.byteOffset, page.bytes.byteLength);
      const starts = page.starts.subarray(0, page.count + 1);
      const keyOf = (i: number) => text.toString('utf8', starts[i], starts[i + 1]);
      const verdictOf = (i: number) => verdicts[page.codes[i] as number] as Verdict;
      if (keys.hasEachOfBytes) {
        // One function for every answer's text, told which by `told` (it is asked for at once or never).
        let told = 0;
        const key = () => keyOf(told);
        const answer = numbered ?? ((_: number, v: Verdict, time: number) => found(key(), v, time));
        keys.hasEachOfBytes(page.bytes, starts, page.hashes, (i, ordinal) => {
          // A reader started early (readAhead) took answers from a little longer ago than `since`.
          if ((page.times[i] as number) < since) return;
          told = i;
          answer(ordinal, verdictOf(i), page.times[i] as number, key);
          count++;
        });
      } else {
        for (let i = 0; i < page.count; i++) {
          // A reader started early (readAhead) took answers from a little longer ago than `since`.
          if ((page.times[i] as number) < since) continue;
          const key = keyOf(i);
          if (!keys.has(key)) continue;
          found(key, verdictOf(i), page.times[i]);
          count++;
        }
      }
      await turn();
      if (stop?.aborted) break;
    }
    return count;
  }

  private total(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM verdicts').get() as { n: number } | undefined)?.n ?? 0;
  }

  async count(
    keys: KeySet,
    since: number,
    found: (key: string) => void = () => {},
    stop?: AbortSignal,
  ): Promise<number> {
    // A statement per batch costs about three times a row read in a full pass: read everything when asking
    // about more than a third of it.
    if (keys.size * 3 < this.total()) return await this.lookupEach(keys, since, found, stop);
    let count = 0;
    const counted = (key: string) => {
      count++;
      found(key);
    };
    for (const page of this.freshLines('key', SCAN_PAGE, since)) {
      if (keys.hasEach) keys.hasEach(page, (i) => counted(page[i] as string));
      else for (const key of page) if (keys.has(key)) counted(key);
      await turn();
      if (stop?.aborted) break;
    }
    return count;
  }

  /**
   * `line` (an SQL expression over a row) of every row answered since `since`, in key order, read in pages of
   * `size` rows as one string each (split here into a page of lines), so memory stays bounded. Addresses hold no line end (the syntax
   * check refuses control characters).
   */
  private *freshLines(line: string, size: number, since: number): Generator<string[]> {
    const page = this.db.prepare(
      `SELECT group_concat(${line}, char(10)) AS lines, max(key) AS last, count(*) AS n FROM (SELECT key, status, flags, reason, at FROM verdicts WHERE key > ? AND at >= ? ORDER BY key LIMIT ?)`,
    );
    let after = '';
    for (;;) {
      const read = page.get(after, since, size) as { lines: string | null; last: string; n: number } | undefined;
      if (!read?.lines) return;
      yield read.lines.split('\n');
      if (read.n < size) return;
      after = read.last;
    }
  }

  async store(verdicts: readonly Verdict[]): Promise<void> {
    const now = Date.now();
    // Taken at once: a deferred transaction that must upgrade to write fails at once when another run writes.
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const v of verdicts) {
        const at = Date.parse(v.checkedAt);
        const { free, role } = addressKind(v);
        this.insert.run(
          v.key,
          v.serviceStatus ?? v.status,
          rowFlags(v, free, role),
          v.reason,
          Number.isFinite(at) ? at : now,
        );
      }
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  async stats(): Promise<CacheStats> {
    const row = this.db
      .prepare('SELECT count(*) AS entries, min(at) AS oldest, max(at) AS newest FROM verdicts')
      .get() as unknown as { entries: number; oldest: number | null; newest: number | null };
    this.db.exec('PRAGMA wal_checkpoint(PASSIVE)');
    const bytes = this.fileBytes();
    const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
    return { entries: row.entries, oldest: iso(row.oldest), newest: iso(row.newest), bytes };
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
    await this.endReadAhead();
    this.db.close();
  }

  /** The file's size with its WAL's (answers not checkpointed yet). */
  private fileBytes(): number {
    const size = (suffix: string) => statSync(`${this.path}${suffix}`, { throwIfNoEntry: false })?.size ?? 0;
    return size('') + size('-wal');
  }

  /** A read begun by readAhead and not taken by lookupAll is stopped (its run ended first). */
  async endReadAhead(): Promise<void> {
    const early = this.early;
    this.early = undefined;
    await early?.end();
  }
}
