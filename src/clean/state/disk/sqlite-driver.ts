// node:sqlite, loaded without its ExperimentalWarning: the warning is printed on every run that opens the cache,
// and stderr is for what users can act on. Only that one warning is dropped; every other passes through.
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type * as Sqlite from 'node:sqlite';

const original = process.emitWarning;
process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
  const text = typeof warning === 'string' ? warning : warning.message;
  const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
  const name = warning instanceof Error ? warning.name : type;
  if (name === 'ExperimentalWarning' && /\bSQLite\b/.test(text)) return;
  return (original as (...args: unknown[]) => void).call(this, warning, ...rest);
} as typeof process.emitWarning;
let sqlite: typeof Sqlite;
try {
  // Not `await import()`: the single executable is one CommonJS script, which has no top-level await.
  sqlite = process.getBuiltinModule('node:sqlite');
} finally {
  process.emitWarning = original;
}

export const { DatabaseSync } = sqlite;
export type Database = Sqlite.DatabaseSync;
export type Statement = Sqlite.StatementSync;

/** How long a statement waits for another process's write to end before it fails: runs share the files. */
const BUSY_WAIT_MS = 60_000;

/**
 * The account's file, created private (SQLite gives its -wal and -shm the same mode). SQLite does not wait while
 * another connection makes a new file WAL or its tables: the opening is retried.
 */
export function openDatabase(path: string, schema?: string): Database {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    const db = new DatabaseSync(path);
    try {
      db.exec(`PRAGMA busy_timeout = ${BUSY_WAIT_MS}`);
      db.exec('PRAGMA journal_mode = WAL');
      db.exec('PRAGMA synchronous = NORMAL');
      if (schema) db.exec(schema);
      return db;
    } catch (error) {
      db.close();
      if (!isBusy(error) || Date.now() - started > BUSY_WAIT_MS) throw error;
      pause(Math.min(5 * attempt, 100) + Math.random() * 10);
    }
  }
}

const isBusy = (error: unknown) =>
  /database is locked|SQLITE_BUSY/.test(
    error instanceof Error ? `${error.message} ${String((error as { code?: unknown }).code)}` : '',
  );

/** Waits without returning to the event loop: an open is synchronous, and its callers are. */
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** One write transaction, taken at once (BEGIN IMMEDIATE), so that concurrent runs wait rather than fail. */
export function transaction(db: Database, work: () => void): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    work();
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
