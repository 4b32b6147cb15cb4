// A list as a run read it: `runs resume` continues a run only on that list, never mixing two lists' counts.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { formatCount } from '../../../quantities.js';

export interface ListStamp {
  size: number;
  modifiedMs: number;
  edges: string;
}

const BLOCK = 64 * 1024;

export function stampList(path: string): ListStamp | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    const { size, mtimeMs } = stat;
    const hash = createHash('sha256');
    const block = Buffer.alloc(Math.min(size, BLOCK));
    hash.update(block.subarray(0, readSync(fd, block, 0, block.length, 0)));
    if (size > BLOCK)
      hash.update(block.subarray(0, readSync(fd, block, 0, block.length, Math.max(BLOCK, size - BLOCK))));
    return { size, modifiedMs: mtimeMs, edges: hash.digest('hex') };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

export const sameStamp = (a: ListStamp, b: ListStamp): boolean =>
  a.size === b.size && a.edges === b.edges && a.modifiedMs === b.modifiedMs;

export function listChange(path: string, was: ListStamp): string | undefined {
  const now = stampList(path);
  if (!now) return 'it is gone';
  if (now.size !== was.size) return `its size went from ${formatCount(was.size)} to ${formatCount(now.size)} bytes`;
  if (now.edges !== was.edges) return 'its content differs';
  if (now.modifiedMs !== was.modifiedMs)
    return `it was modified at ${new Date(now.modifiedMs).toISOString()}, after the run read it`;
  return undefined;
}
