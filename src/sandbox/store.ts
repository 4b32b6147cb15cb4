import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { flushDirectory, temporaryPath } from '../atomic-write.js';
import { emptyState, normalizeState, type SandboxState } from './state.js';

export const STATE_FILE = 'sandbox.json';

/**
 * The sandbox state, optionally backed by `<dataDir>/sandbox.json`. Several processes may share the file: each
 * mutation reloads it first and writes right after. Look records up inside `mutate`: a reload replaces them.
 */
export class Store {
  // Writes run one after another so an older snapshot never lands over a newer one.
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string | undefined,
    private current: SandboxState,
    private identity: string | undefined,
  ) {}

  static async open(dataDir: string | undefined): Promise<Store> {
    if (dataDir === undefined) return new Store(undefined, emptyState(), undefined);
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const file = join(dataDir, STATE_FILE);
    const loaded = await readState(file);
    if ('error' in loaded) {
      throw new Error(`sandbox state ${file} is unreadable (${loaded.error}); move it aside to start afresh`);
    }
    return new Store(file, loaded.state, loaded.identity);
  }

  /** The latest state this process knows. Treat as read-only outside `mutate`. */
  get state(): SandboxState {
    return this.current;
  }

  /** Picks up changes another process wrote since we last read or wrote the file. */
  async refresh(): Promise<void> {
    if (this.file === undefined) return;
    await this.writing;
    const id = await fileIdentity(this.file);
    if (id === this.identity) return;
    const loaded = await readState(this.file);
    // An unreadable file (a hand edit in progress) keeps the state we have; the next request retries.
    if ('error' in loaded) return;
    this.current = loaded.state;
    this.identity = loaded.identity;
  }

  /** Applies `fn` to a copy made current only if `fn` returns, so a throwing handler leaves nothing; then persists. */
  async mutate<T>(fn: (draft: SandboxState) => T): Promise<T> {
    await this.refresh();
    const draft = structuredClone(this.current);
    const result = fn(draft);
    // Current before the write lands, so a queued mutation builds on it; a failed write goes out with the next.
    this.current = draft;
    if (this.file !== undefined) {
      const file = this.file;
      const data = JSON.stringify(draft);
      const write = this.writing.then(async () => {
        this.identity = await writeAtomic(file, data);
      });
      // Keep the queue alive after a failed write; the failing mutation itself reports the error.
      this.writing = write.catch(() => undefined);
      await write;
    }
    return result;
  }

  async flush(): Promise<void> {
    await this.writing;
  }
}

/** A missing file is an empty state: a sandbox not used yet, or reset by removing the file. */
type Loaded = { state: SandboxState; identity: string | undefined } | { error: string };

async function readState(file: string): Promise<Loaded> {
  let identity: string | undefined;
  let text: string;
  try {
    const fh = await open(file, 'r');
    try {
      identity = identityOf(await fh.stat());
      text = await fh.readFile('utf8');
    } finally {
      await fh.close();
    }
  } catch (err) {
    if (isNotFound(err)) return { state: emptyState(), identity: undefined };
    return { error: (err as Error).message };
  }
  try {
    return { state: normalizeState(JSON.parse(text)), identity };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

async function fileIdentity(file: string): Promise<string | undefined> {
  try {
    return identityOf(await stat(file));
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

// A rename gives the file a new inode, so inode plus mtime and size detects every replacement.
function identityOf(s: { dev: number; ino: number; mtimeMs: number; size: number }): string {
  return `${s.dev}:${s.ino}:${s.mtimeMs}:${s.size}`;
}

/** Write to a temp file beside the target, fsync, rename over it; readers see the old or the new file, never half. */
async function writeAtomic(file: string, data: string): Promise<string> {
  const tmp = temporaryPath(file);
  let identity: string;
  try {
    const fh = await open(tmp, 'wx', 0o600);
    try {
      await fh.chmod(0o600); // the umask could only narrow it, but say it explicitly
      await fh.writeFile(data, 'utf8');
      await fh.sync();
      // rename keeps inode and mtime, so this is the identity the target will have
      identity = identityOf(await fh.stat());
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  flushDirectory(dirname(file));
  return identity;
}

function isNotFound(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
