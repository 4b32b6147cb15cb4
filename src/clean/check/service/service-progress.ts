import type { RunPorts } from '../../run/events.js';
import type { RateLimiter } from '../../state/rate-limiter.js';
import { type SendOptions, timeLeft } from './send-to-service.js';

/** The sender's events as the run's progress: what is checked, spent and in flight, the waits, and an ETA. */
export function progressOf(
  ports: RunPorts,
  pending: { readonly size: number },
  limiter: RateLimiter,
  concurrency: number,
): SendOptions['onEvent'] {
  let checked = 0;
  let requestsTook = 0;
  let answers = 0;
  return (event) => {
    if (event.type === 'answered') {
      checked += event.addresses;
      if (event.tookMs !== undefined) {
        requestsTook += event.tookMs;
        answers++;
      }
      const requestMs = answers > 0 ? requestsTook / answers : undefined;
      const toCheck = pending.size;
      const unsent = toCheck - checked - (event.sending ?? 0);
      const etaMs = checked >= toCheck ? 0 : timeLeft(unsent, requestMs, concurrency, limiter);
      const change = { toCheck, checked, spent: event.spent, requests: event.requests, waitingMs: 0, etaMs };
      ports.emit({ type: 'progress', change });
    } else if (event.type === 'limit-wait') ports.emit({ type: 'limit-wait', ms: event.ms });
    else if (event.type === 'waiting' && event.why === 'rate')
      ports.emit({ type: 'progress', change: { waitingMs: event.ms } });
    else if (event.type === 'retry') ports.emit({ type: 'retry', message: event.message });
    else if (event.type === 'in-flight') ports.emit(event);
  };
}
