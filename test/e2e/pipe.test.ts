// A real process whose reader goes away (`mailclean clean big.csv | head`): a quiet stop, no stack trace.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TestHome } from '../helpers/cli.js';
import { closedUdpPort } from '../helpers/dns-server.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');

describe('clean into a closed pipe', () => {
  const home = new TestHome();
  afterAll(() => home.cleanup());

  it('stops quietly when stdout is closed early', { timeout: 60_000 }, async () => {
    const input = join(home.dir, 'big.csv');
    writeFileSync(input, `email\n${Array.from({ length: 50_000 }, (_, i) => `u${i}@d${i % 50}.com`).join('\n')}\n`);
    const port = await closedUdpPort();
    const child = spawn(process.execPath, [BIN, 'clean', input, '--local', '--dns-server', `127.0.0.1:${port}`, '-q'], {
      env: { ...process.env, ...home.env() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).not.toMatch(/EPIPE/);
    expect(code).toBe(0);
  });
});
