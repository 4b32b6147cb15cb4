// A long pass over a big list allocates fast, and V8 grows its young generation to match. V8 13 (Node 24) lets it
// reach 128 MB, and the process then holds that much more garbage: a 10M-row dry run peaked at 390 MB there, 250 MB
// with the growth stopped at 16 MB. V8 12 (Node 22) stops at 32 MB itself, where stopping it sooner made `--local`
// slower and no smaller, so it is left alone. The maximum (--max-semi-space-size) is only read at start-up, where
// users would have to pass it; the growth factor is read at each growth, so setting it to 1 stops the growth.
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * Past this, the young generation grows no more (checked after each collection, so it may grow a step or two further).
 */
const STOP_BYTES = 16 * 2 ** 20;

/** Whether this V8 grows the young generation past Node 22's 32 MB (its major version, as the limit is not exposed). */
export const youngGenerationGrowsLarge = Number(process.versions.v8.split('.')[0]) >= 13;

/**
 * Stops the young generation's growth once it reaches `stopBytes`, for the rest of the process; returns the end of the
 * watch.
 */
export function capYoungGeneration(stopBytes = STOP_BYTES): () => void {
  const observer = new PerformanceObserver(() => {
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (young === undefined || young.space_size < stopBytes) return;
    setFlagsFromString('--semi-space-growth-factor=1');
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}
