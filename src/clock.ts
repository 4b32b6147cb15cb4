// Time as the limiter and the waits see it: the real one, or a test's.
import { setTimeout as delay } from 'node:timers/promises';

export interface Clock {
  now(): number;
  /** Rejects with the signal's own reason when it aborts, as a stopped run's work does. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: async (ms, signal) => {
    await delay(ms, undefined, { signal }).catch((error: unknown) => {
      throw signal?.aborted ? signal.reason : error;
    });
  },
};
