// A long pass over a big list allocates fast, and V8 grows its young generation to match: Node 24 lets it reach
// 128 MB (Node 22, 32 MB), and the process then holds that much more garbage. A 10M-row dry run peaked at 390 MB on
// Node 24, 250 MB with the growth stopped, no slower. The maximum (--max-semi-space-size) is only read at start-up,
// where users would have to pass it; the growth factor is read at each growth, so setting it to 1 stops growth.
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** Past this, the young generation grows no more (checked after each collection, so it may grow a step or two further). */
export const YOUNG_GENERATION_STOP_BYTES = 8 * 2 ** 20;

/** Stops the young generation's growth once it reaches the limit, for the rest of the process; returns the stop of the watch. */
export function capYoungGeneration(): () => void {
  const observer = new PerformanceObserver(() => {
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (young === undefined || young.space_size < YOUNG_GENERATION_STOP_BYTES) return;
    setFlagsFromString('--semi-space-growth-factor=1');
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}
