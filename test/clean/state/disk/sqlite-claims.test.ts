// The claims file of a machine's runs (the contract suite holds what every store's claims promise): a file made by an
// earlier version, with an index by owner, is used as it is, and loses the index that only made claiming slower.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteClaims } from '../../../../src/clean/state/disk/sqlite-claims.js';
import { DatabaseSync } from '../../../../src/clean/state/disk/sqlite-driver.js';
import { processSpace } from '../../../../src/lock-files.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mailclean-claims-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A claims file as the versions before made it, `key` claimed by a runner that is alive (this process). */
function earlierFile(path: string, key: string, owner: string): void {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(
    'CREATE TABLE claims (key TEXT PRIMARY KEY, owner TEXT NOT NULL, at INTEGER NOT NULL) WITHOUT ROWID;' +
      'CREATE INDEX claims_by_owner ON claims (owner);' +
      'CREATE TABLE runners (owner TEXT PRIMARY KEY, host TEXT NOT NULL, pid INTEGER NOT NULL, beat INTEGER NOT NULL) WITHOUT ROWID',
  );
  db.prepare('INSERT INTO claims (key, owner, at) VALUES (?, ?, ?)').run(key, owner, Date.now());
  db.prepare('INSERT INTO runners (owner, host, pid, beat) VALUES (?, ?, ?, ?)').run(
    owner,
    processSpace(),
    process.pid,
    Date.now(),
  );
  db.close();
}

const indexes = (path: string): string[] => {
  const db = new DatabaseSync(path);
  try {
    const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'claims'").all();
    return rows.map((row) => String((row as { name: string }).name)).filter((name) => !name.startsWith('sqlite_'));
  } finally {
    db.close();
  }
};

describe('SqliteClaims', () => {
  it("takes a file made before as it is: another runner's claims hold, this run's are released, the owner index goes", async () => {
    const path = join(dir, 'claims.sqlite');
    earlierFile(path, 'held@example.com', `${processSpace()}:${process.pid}:earlier1`);
    expect(indexes(path)).toEqual(['claims_by_owner']);

    const first = new SqliteClaims(path);
    await first.start();
    expect(await first.claim(['held@example.com', 'a@example.com', 'b@example.com'])).toEqual({
      mine: ['a@example.com', 'b@example.com'],
      theirs: ['held@example.com'],
    });
    expect(indexes(path)).toEqual([]);
    await first.release();

    const second = new SqliteClaims(path);
    await second.start();
    expect(await second.claim(['a@example.com', 'held@example.com'])).toEqual({
      mine: ['a@example.com'],
      theirs: ['held@example.com'],
    });
    await second.release();
  });
});
