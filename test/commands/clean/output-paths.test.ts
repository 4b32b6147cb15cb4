// Output paths users type, and disks that fill: `-o -` is stdout, a full device or a file where a directory
// should be is one line (never a trace), and a data directory that stops taking writes mid-run loses nothing paid.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RESULT_COLUMNS } from '../../../src/clean/verdict/verdict.js';
import { expectError, TestHome } from '../../helpers/cli.js';
import { serve, type TestServer } from '../../helpers/http-server.js';

let home: TestHome;
let input: string;
beforeEach(() => {
  home = new TestHome();
  input = join(home.dir, 'list.csv');
  writeFileSync(input, 'email\nann@example.com\nbob@example.org\n');
});
afterEach(() => home.cleanup());

// The built-in engine with DNS on a closed loopback port: fast, and never leaves the machine.
const local = ['--local', '--dns-server', '127.0.0.1:9'];

describe('clean: output paths', () => {
  it('-o - writes the rows to stdout and creates no file named "-"', async () => {
    const res = await home.run(['clean', input, '-o', '-', ...local]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.split('\n')[0]).toBe(
      ['email', ...RESULT_COLUMNS, 'email_suggestion', 'email_provider'].join(','),
    );
    expect(existsSync(join(home.dir, '-'))).toBe(false);
    expectError(
      await home.run(['clean', input, '--report', '-', ...local]),
      2,
      'error: --report: "-" means stdout, which carries the rows; name a file',
    );
  });

  it.skipIf(!existsSync('/dev/full'))('-o /dev/full: one line saying the device is full, exit 1', async () => {
    const res = await home.run(['clean', input, '-o', '/dev/full', ...local]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: cannot write \/dev\/full: no space left on the device \(ENOSPC\)$/m);
    expect(res.stderr).not.toMatch(/^\s+at |Unhandled/m);
  });

  it('-o file.csv/x.csv (a file where a directory should be): exit 2 naming it, before anything is checked', async () => {
    writeFileSync(join(home.dir, 'file.csv'), 'not a directory\n');
    const res = await home.run(['clean', input, '-o', join(home.dir, 'file.csv', 'x.csv'), ...local]);
    expectError(
      res,
      2,
      `error: --output: cannot write ${join(home.dir, 'file.csv', 'x.csv')}: ${join(home.dir, 'file.csv')} is a file, not a directory`,
    );
  });
});

describe('clean: a data directory that stops taking writes mid-run', () => {
  let server: TestServer;
  afterEach(async () => server.close());

  it("the limiter's state cannot be written: one error line, the answers paid for are journaled, --resume pays nothing twice", async () => {
    const limiterDir = join(home.dataDir, 'limiter');
    let requests = 0;
    server = await serve((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        requests++;
        // As the first answer goes out, a directory takes the place of the limiter's state file: its next write fails.
        if (requests === 1) {
          for (const name of readdirSync(limiterDir).filter((n) => n.endsWith('.json'))) {
            rmSync(join(limiterDir, name));
            mkdirSync(join(limiterDir, name));
          }
        }
        const result = (JSON.parse(body) as { email: string[] }).email.map((email) => ({
          email,
          emailStatus: { status: 'valid', valid: true },
        }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result }));
      });
    });
    const env = { MAILCLEAN_CLEAN_URL: server.url, MAILCLEAN_CLEAN_TOKEN: 'token-0123456789abcdef' };
    const out = join(home.dir, 'out.csv');
    const res = await home.run(['clean', input, '-o', out, '--concurrency', '1'], { env });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: cannot keep the rate limiter's state in .+: a directory is in the way$/m);
    expect(res.stderr).not.toMatch(/^\s+at |LimiterStateError/m);
    expect(requests).toBe(1);
    // The answer paid for was journaled and written: resuming (with the directory fixed) sends nothing.
    for (const name of readdirSync(limiterDir)) rmSync(join(limiterDir, name), { recursive: true });
    const again = await home.run(['clean', input, '-o', out, '--resume'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(requests).toBe(1);
  });
});
