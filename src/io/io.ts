import type { Readable, Writable } from 'node:stream';

export type InputStream = Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
export type OutputStream = Writable & { isTTY?: boolean; columns?: number };
export type Signal = 'SIGINT' | 'SIGTERM';

/** Everything a command may touch of the outside world; tests hand in their own. */
export interface IO {
  stdin: InputStream;
  stdout: OutputStream;
  stderr: OutputStream;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Subscribes to a signal for the duration of some work; returns the unsubscribe. */
  onSignal(signal: Signal, handler: () => void): () => void;
}

export function processIO(): IO {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    onSignal(signal, handler) {
      process.on(signal, handler);
      return () => process.off(signal, handler);
    },
  };
}

/** Reads a stream to its end as UTF-8. */
export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
