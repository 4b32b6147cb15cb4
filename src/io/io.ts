import type { Readable, Writable } from 'node:stream';
import type { Clock } from '../clock.js';
import type { SecretSet } from '../secrets.js';
import { ProcessSignals, type Signals } from './signals.js';

export type { Signal } from './signals.js';

export type InputStream = Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
export type OutputStream = Writable & { isTTY?: boolean; columns?: number };

/** Everything a command may touch of the outside world; tests hand in their own. */
export interface IO {
  stdin: InputStream;
  stdout: OutputStream;
  stderr: OutputStream;
  env: Record<string, string | undefined>;
  cwd: string;
  /** SIGINT and SIGTERM, as two stages of stopping (see signals.ts). */
  signals: Signals;
  /** The secrets this command holds, masked in all it writes; `main` makes it from the environment when absent. */
  secrets?: SecretSet;
  /** What every date and age is read from (months, renewals, lock and claim ages, history); the real one when absent. */
  clock?: Clock;
}

export function processIO(): IO {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signals: new ProcessSignals(),
  };
}
