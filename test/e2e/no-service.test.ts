// A clean-url that leads to no cleaning service, in a real process: nothing listening, a server answering 404, a web
// server answering an HTML page with 501 or 200. Each fails at once (exit 1, one error line naming the URL and
// clean-url), spends nothing, leaves the existing output as it was, and gives back the rate-limit slots it booked.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestHome } from '../helpers/cli.js';
import { useServers } from '../helpers/http-server.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');
/** The bound: a wrong URL must fail within 30 s. A run that takes longer is killed, and the test fails. */
const BOUND_MS = 30_000;
// 300 addresses: 6 batches, more than the 4 sent at once.
const LIST = `email\n${Array.from({ length: 300 }, (_, i) => `person${i}@example${i % 7}.com`).join('\n')}\n`;

function run(home: TestHome, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: home.env({ MAILCLEAN_CLEAN_TOKEN: 'a-token-0123456789' }) as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: BOUND_MS,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every send time the account's limiter holds (its state files in the data directory). */
function limiterSends(home: TestHome): unknown[] {
  const dir = join(home.dataDir, 'limiter');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => (JSON.parse(readFileSync(join(dir, name), 'utf8')) as { sends: unknown[] }).sends);
}

describe('clean against a clean-url with no cleaning service behind it', () => {
  const serve = useServers();
  let home: TestHome;
  beforeEach(() => {
    home = new TestHome();
  });
  afterEach(() => home.cleanup());

  const html = (status: number, title: string) => async () => {
    const server = await serve((_req, res) => {
      res.writeHead(status, { 'content-type': 'text/html' });
      res.end(`<!doctype html><html><head><title>${title}</title></head><body>${title}</body></html>`);
    });
    return server.url;
  };
  it.each([
    ['refuses connections', async () => 'http://127.0.0.1:1', /cannot reach .*connection refused; nothing was sent/],
    ['answers 404', html(404, 'Not Found'), /answered 404 .*does not lead to a cleaning service: nothing was spent/],
    ['answers HTML with 501', html(501, 'Not Implemented'), /answered 501 .*does not lead to a cleaning service/],
    ['answers a web page with 200', html(200, 'Welcome'), /not JSON .*does not lead to a cleaning service/],
  ])(
    'that %s: exit 1 at once, one line naming the URL and clean-url, nothing spent or charged, the output kept',
    async (_what, start, says) => {
      const url = await start();
      const input = join(home.dir, 'list.csv');
      const out = join(home.dir, 'out.csv');
      writeFileSync(input, LIST);
      writeFileSync(out, 'the cleaned list of an earlier run\n');
      const res = await run(home, ['--clean-url', url, 'clean', input, '-o', out]);
      expect(res.code, res.stderr).toBe(1);
      const errors = res.stderr.split('\n').filter((line) => line.startsWith('error: '));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(says);
      expect(errors[0]).toContain(`clean-url`);
      expect(errors[0]).toContain(new URL(url).href);
      expect(res.stderr).toMatch(/^hint: fix clean-url /m);
      expect(res.stderr).not.toMatch(/rate limit|--resume|partial/);
      expect(res.stdout).toBe('');
      expect(readFileSync(out, 'utf8')).toBe('the cleaned list of an earlier run\n');
      // Slots were booked for the requests, and given back: the next run of the account has the whole limit.
      expect(limiterSends(home)).toEqual([]);
    },
  );
});
