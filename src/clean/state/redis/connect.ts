// The Redis that runners on several machines share (--shared redis://HOST:PORT[/DB]). Commands fail fast when
// it is gone, instead of queueing: a run must stop sending rather than send unbooked.
import type { Redis } from 'ioredis';
import { redactUrl } from '../../../redact.js';
import { SharedStateError } from '../account-state.js';

/** The port's error for a Redis that cannot be reached or answers an error, naming it without its password. */
export function unreachable(url: string, cause: unknown): SharedStateError {
  return new SharedStateError(redactUrl(url), cause);
}

/** What `command` resolves to; its failure as the port's error. */
export async function askShared<T>(url: string, command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (error) {
    throw unreachable(url, error);
  }
}

export async function connectShared(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 3_000,
    commandTimeout: 5_000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    // One quick attempt to come back, then every command fails until the run ends.
    retryStrategy: (times) => (times > 1 ? null : 200),
  });
  // Failures surface through the commands that fail; the socket's own error says more than "Connection is closed."
  let socketError: unknown;
  redis.on('error', (error) => (socketError = error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw unreachable(url, socketError ?? error);
  }
  return redis;
}
