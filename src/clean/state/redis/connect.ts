// The Redis that runners on several machines share (--shared redis://HOST:PORT[/DB]). Commands fail fast when
// it is gone, instead of queueing: a run must stop sending rather than send unbooked.
import type { Redis } from 'ioredis';
import { UsageError } from '../../../errors.js';
import { redactUrl } from '../../../redact.js';

/** Thrown by the shared limiter, cache and claims when Redis cannot be reached or answers an error. */
export class SharedStateError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(
      `the shared state at ${redactUrl(url)} cannot be reached (${cause instanceof Error ? cause.message : String(cause)})`,
    );
  }
}

/** redis:// or rediss:// with an optional /DB; anything else is a usage error naming where it came from. */
export function checkSharedUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${source}: "${redactUrl(value)}" is not a URL`, 'write it as redis://HOST:PORT[/DB]');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new UsageError(
      `${source}: "${redactUrl(value)}" is not a redis:// URL`,
      'write it as redis://HOST:PORT[/DB]',
    );
  if (url.pathname && url.pathname !== '/' && !/^\/\d+$/.test(url.pathname))
    throw new UsageError(`${source}: "${redactUrl(value)}": the database must be a number (/0, /1 …)`);
  return value;
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
    throw new SharedStateError(url, socketError ?? error);
  }
  return redis;
}
