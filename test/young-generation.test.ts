// The young generation stops growing once capYoungGeneration() sees it at its limit: a child process allocating
// garbage that survives a while (as a pass over a big list does) grows it to 32 MB (Node 22) or 128 MB (Node 24)
// without the cap; with a 4 MB one, to 8 MB on Node 22 and 19-30 MB on Node 24 (which grows in smaller steps, more often).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const STOP_BYTES = 4 * 2 ** 20;
const BUILT = pathToFileURL(join(import.meta.dirname, '..', 'dist', 'young-generation.js')).href;

/** The largest the young generation got while allocating, in a fresh process, with or without the cap. */
async function largestYoungGeneration(capped: boolean): Promise<number> {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { capYoungGeneration } from ${JSON.stringify(BUILT)};
    if (${capped}) capYoungGeneration(${STOP_BYTES});
    const young = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
    let largest = 0;
    const recent = new Array(200_000);
    // Uncapped, it is at its largest by turn 6 (Node 22) or 36 (Node 24); with the cap broken, the same.
    for (let turn = 0; turn < 100; turn++) {
      for (let i = 0; i < 20_000; i++) recent[(turn * 20_000 + i) % recent.length] = { row: i, email: 'person' + i + '@example.com' };
      await new Promise((resolve) => setImmediate(resolve));
      largest = Math.max(largest, young());
    }
    process.stdout.write(String(largest));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
  return Number(stdout);
}

describe('capYoungGeneration', () => {
  it('stops the growth of the young generation near its limit, at a third or less of where it goes uncapped', async () => {
    const [uncapped, capped] = await Promise.all([largestYoungGeneration(false), largestYoungGeneration(true)]);
    expect(uncapped).toBeGreaterThan(4 * STOP_BYTES);
    expect(capped).toBeLessThanOrEqual(uncapped / 3);
  }, 60_000);
});
