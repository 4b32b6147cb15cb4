// Where an output's bytes go, decided before anything is spent: a file is replaced by rename, a device or FIFO not.
import { closeSync, lstatSync, openSync, readlinkSync, realpathSync, type Stats, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { temporaryPath } from '../../atomic-write.js';
import { UsageError } from '../../errors.js';
import { removeLeftovers } from '../../lock-files.js';

export interface OutputPath {
  given: string;
  path: string;
  kind: 'file' | 'direct';
  /** The mode of the file being replaced, kept on the new one; absent for a new file (the umask decides). */
  mode?: number;
}

const code = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

function statOrUndefined(path: string, follow: boolean): Stats | undefined {
  try {
    return follow ? statSync(path) : lstatSync(path);
  } catch (error) {
    // ENOTDIR: a file stands where a directory of the path should (out.csv/x.csv): no such path either.
    if (code(error) === 'ENOENT' || code(error) === 'ENOTDIR') return undefined;
    throw error;
  }
}

function finalPath(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    // Dangling: follow the chain by hand as far as it goes (a loop is cut after a few steps).
    let current = absolute;
    for (let hops = 0; hops < 16; hops++) {
      const st = statOrUndefined(current, false);
      if (!st?.isSymbolicLink()) return current;
      current = resolve(dirname(current), readlinkSync(current));
    }
    throw new UsageError(`${path}: too many levels of symbolic links`);
  }
}

/** Resolves an output path, creating and removing a file beside it, so one that cannot be written is refused first. */
export function resolveOutputPath(flag: string, given: string): OutputPath {
  let st: Stats | undefined;
  try {
    st = statOrUndefined(given, true);
  } catch (error) {
    throw new UsageError(`${flag}: cannot write ${given} (${code(error) ?? String(error)})`);
  }
  if (st?.isDirectory()) throw new UsageError(`${flag}: ${given} is a directory`);
  // Opened by the name given: /dev/stdout on a pipe resolves to no path that could be opened again.
  if (st && (st.isCharacterDevice() || st.isFIFO())) return { given, path: given, kind: 'direct' };
  const path = finalPath(given);
  if (st && !st.isFile()) throw new UsageError(`${flag}: ${given} is neither a regular file nor a device or pipe`);
  // A run killed with SIGKILL leaves its temporary output beside the target: remove those of dead processes.
  const prefix = `.${basename(path)}.`;
  removeLeftovers(dirname(path), (name) =>
    name.startsWith(prefix) && name.endsWith('.tmp') ? name.slice(prefix.length).split('.')[0] : undefined,
  );
  const probe = temporaryPath(path);
  try {
    closeSync(openSync(probe, 'wx', 0o600));
    unlinkSync(probe);
  } catch (error) {
    if (code(error) === 'ENOTDIR')
      throw new UsageError(`${flag}: cannot write ${given}: ${nearestFile(dirname(path))} is a file, not a directory`);
    const why =
      code(error) === 'EACCES' || code(error) === 'EPERM' || code(error) === 'EROFS'
        ? 'permission denied'
        : (code(error) ?? String(error));
    throw new UsageError(`${flag}: cannot write ${given}: cannot create a file in ${dirname(path)} (${why})`);
  }
  return { given, path, kind: 'file', mode: st ? st.mode & 0o7777 : undefined };
}

function nearestFile(dir: string): string {
  let current = dir;
  while (dirname(current) !== current) {
    const st = statOrUndefined(current, true);
    if (st && !st.isDirectory()) return current;
    current = dirname(current);
  }
  return dir;
}

export function sameFile(a: string, b: string): boolean {
  if (finalPath(a) === finalPath(b)) return true;
  const sa = statOrUndefined(a, true);
  const sb = statOrUndefined(b, true);
  return sa !== undefined && sb !== undefined && sa.isFile() && sa.dev === sb.dev && sa.ino === sb.ino;
}
