import { closeSync, existsSync, fdatasyncSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Verdict } from './verdict.js';

export interface JournalMeta {
  input: string;
  fingerprint: string;
  cleanUrl: string;
  startedAt: string;
}

/**
 * An append-only record of every answer the service gave for this input and account, one JSON line per
 * batch, flushed to disk before the batch counts as done. A run killed at any moment loses at most the
 * batches in flight; a torn last line is ignored when read back.
 */
export class Journal {
  private fd?: number;

  private constructor(
    readonly path: string,
    readonly results: Map<string, Verdict>,
    readonly meta: JournalMeta | undefined,
  ) {}

  static exists(path: string): boolean {
    return existsSync(path);
  }

  /** The keys an earlier run saved, without opening the journal for writing. */
  static peek(path: string): Set<string> {
    return new Set(readEntries(path).results.keys());
  }

  /** Reads what an earlier run saved (nothing, with `restart`), then opens for appending. */
  static open(path: string, meta: JournalMeta, opts: { restart: boolean }): Journal {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (opts.restart && existsSync(path)) unlinkSync(path);
    const { results, meta: existingMeta } = readEntries(path);
    const journal = new Journal(path, results, existingMeta ?? meta);
    journal.fd = openSync(path, 'a', 0o600);
    if (!existingMeta) journal.write({ meta });
    return journal;
  }

  record(verdicts: Verdict[]): void {
    if (verdicts.length === 0) return;
    for (const v of verdicts) this.results.set(v.key, v);
    this.write({ r: verdicts });
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private write(entry: unknown): void {
    if (this.fd === undefined) throw new Error('journal is closed');
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
    fdatasyncSync(this.fd);
  }
}

function readEntries(path: string): { results: Map<string, Verdict>; meta?: JournalMeta } {
  const results = new Map<string, Verdict>();
  let meta: JournalMeta | undefined;
  if (!existsSync(path)) return { results };
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    let entry: { meta?: JournalMeta; r?: Verdict[] };
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // the torn tail of a killed write
    }
    if (entry.meta) meta = entry.meta;
    for (const verdict of entry.r ?? []) results.set(verdict.key, verdict);
  }
  return { results, meta };
}
