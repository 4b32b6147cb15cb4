// The one way mailclean replaces a file: written aside, flushed, renamed over the old one, the rename flushed.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { processTag } from './lock-files.js';

/** Replaces `path` with `data`; `durable: false` skips the flushes (a power cut may then leave neither version). */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600, { durable = true } = {}): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = temporaryPath(path);
  try {
    writeFileSync(tmp, data, { mode, flag: 'wx' });
    if (durable) replaceWith(tmp, path);
    else renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

export function replaceWith(tmp: string, path: string): void {
  flush(tmp, 'r+');
  renameSync(tmp, path);
  // The rename lives in the directory: without this, a power cut may bring back the old name.
  flushDirectory(dirname(path));
}

let written = 0;

/** A hidden name beside `path`, `.NAME.TAG.…` (`processTag()`), so a killed process's leftovers can be told. */
export function temporaryPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${processTag()}.${Date.now()}-${written++}.tmp`);
}

function flush(path: string, flags: string): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function flushDirectory(dir: string): void {
  try {
    flush(dir, 'r');
  } catch {
    // Some systems (and Windows) cannot open a directory to flush it; the rename is as durable as they allow.
  }
}
