// A long pass over a big list allocates fast, and V8 13 (Node 24) grows its young generation to match, holding that
// much more garbage; Node 22's V8 stops early by itself. The growth factor is read at each growth: 1 stops it.
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** Past this the young generation grows no more (checked after each collection: it may grow a step further). */
const STOP_BYTES = 16 * 2 ** 20;

/** Whether this V8 grows the young generation large (by its major version: the limit is not exposed). */
export const youngGenerationGrowsLarge = Number(process.versions.v8.split('.')[0]) >= 13;

/** Stops the young generation's growth once it reaches `stopBytes`; returns the end of the watch. */
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
