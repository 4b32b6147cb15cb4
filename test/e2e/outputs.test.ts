// Where -o and --rejects write, in a real process: special files are written in place, links are followed,
// the input is never overwritten by accident, modes are kept, and a path that cannot be written is refused
// before anything is spent.
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { TestHome } from '../helpers/cli.js';
import { closedUdpPort } from '../helpers/dns-server.js';
import { TEST_PASSWORD_COST } from '../helpers/sandbox.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');
const LIST = 'email,name\nann@example.com,Ann\nbob@example.org,Bob\n';
const isRoot = process.getuid?.() === 0;

describe('outputs', () => {
  let home: TestHome;
  let env: NodeJS.ProcessEnv;
  let input: string;
  beforeAll(async () => {
    home = new TestHome();
    // The built-in engine checks (nothing configured); DNS answers "unreachable" at once, on loopback.
    env = {
      ...process.env,
      ...home.env({ MAILCLEAN_DNS_SERVERS: `127.0.0.1:${await closedUdpPort()}` }),
    } as NodeJS.ProcessEnv;
    input = join(home.dir, 'in.csv');
    writeFileSync(input, LIST);
  });
  afterAll(() => home.cleanup());

  function run(
    args: string[],
    extraEnv: NodeJS.ProcessEnv = {},
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        env: { ...env, ...extraEnv },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('a FIFO is written in place and stays a FIFO', async () => {
    const fifo = join(home.dir, 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = new Promise<string>((resolve) => {
      const cat = spawn('cat', [fifo]);
      let text = '';
      cat.stdout.on('data', (d: Buffer) => (text += d.toString()));
      cat.on('close', () => resolve(text));
    });
    const res = await run(['clean', input, '-o', fifo]);
    expect(res.code, res.stderr).toBe(0);
    expect(await reader).toMatch(/^email,name,email_status,/);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('a character device is written in place, never replaced (root: a private copy of /dev/null)', async (ctx) => {
    if (!isRoot) ctx.skip('skipped: making a device node needs root');
    const device = join(home.dir, 'null');
    execFileSync('mknod', [device, 'c', '1', '3']);
    const res = await run(['clean', input, '-o', device]);
    expect(res.code, res.stderr).toBe(0);
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('a symbolic link is followed: its target is replaced, the link stays', async () => {
    mkdirSync(join(home.dir, 'real'));
    const target = join(home.dir, 'real', 'target.csv');
    writeFileSync(target, 'old\n');
    const link = join(home.dir, 'link.csv');
    symlinkSync(target, link);
    const res = await run(['clean', input, '-o', link]);
    expect(res.code, res.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toMatch(/^email,name,email_status,/);

    const dangling = join(home.dir, 'dangling.csv');
    symlinkSync(join(home.dir, 'real', 'new.csv'), dangling);
    expect((await run(['clean', input, '-o', dangling])).code).toBe(0);
    expect(readFileSync(join(home.dir, 'real', 'new.csv'), 'utf8')).toMatch(/^email,name,email_status,/);
  });

  it('the input is never overwritten: -o, --rejects, a link to it, a hard link; --in-place keeps a backup no output may name', async () => {
    const viaLink = join(home.dir, 'in-link.csv');
    symlinkSync(input, viaLink);
    const hard = join(home.dir, 'in-hard.csv');
    linkSync(input, hard);
    for (const args of [
      ['-o', input],
      ['--format', 'json', '-o', input],
      ['-o', viaLink],
      ['-o', hard],
      ['--only', 'valid', '--rejects', input, '-o', join(home.dir, 'keep.csv')],
    ]) {
      const res = await run(['clean', input, ...args]);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toMatch(/is the input file: writing it would overwrite your list/);
      expect(readFileSync(input, 'utf8')).toBe(LIST);
    }
    const copy = join(home.dir, 'copy.csv');
    writeFileSync(copy, LIST);
    const backup = join(home.dir, 'copy.bak.csv');
    for (const args of [
      ['--summary-json', backup],
      ['--report', backup],
      ['--only', 'valid', '--rejects', backup],
    ]) {
      const res = await run(['clean', copy, '-o', copy, '--in-place', ...args]);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toMatch(/copy\.bak\.csv is where --in-place keeps your list/);
      expect(existsSync(backup)).toBe(false);
      expect(readFileSync(copy, 'utf8')).toBe(LIST);
    }
    const inPlace = await run(['clean', copy, '-o', copy, '--in-place']);
    expect(inPlace.code, inPlace.stderr).toBe(0);
    // The extension last, so that a spreadsheet program opens the copy too.
    expect(readFileSync(backup, 'utf8')).toBe(LIST);
    expect(readFileSync(copy, 'utf8')).toMatch(/^email,name,email_status,/);
  });

  it('an existing output keeps its mode; a new one follows the umask', async () => {
    const existing = join(home.dir, 'private.csv');
    writeFileSync(existing, 'old\n');
    chmodSync(existing, 0o600);
    expect((await run(['clean', input, '-o', existing])).code).toBe(0);
    expect(statSync(existing).mode & 0o777).toBe(0o600);
    const fresh = join(home.dir, 'fresh.csv');
    const umask = process.umask();
    expect((await run(['clean', input, '-o', fresh])).code).toBe(0);
    expect(statSync(fresh).mode & 0o777).toBe(0o666 & ~umask);
  });

  it('a path that cannot be written is refused before anything is sent', async () => {
    const sandbox = await startSandbox({ port: 0, plan: 'unlimited', passwordCost: TEST_PASSWORD_COST });
    try {
      const other = new TestHome();
      const urls = ['--api-url', sandbox.url, '--clean-url', sandbox.url];
      await other.run(
        [...urls, 'register', '--service', 'clean', '--name', 'T', '--email', 'proc@example.com', '--password-stdin'],
        { stdin: 'a long password' },
      );
      const res = await other.run(['clean', input, '-o', '/proc/out.csv']);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/^error: --output: cannot write \/proc\/out\.csv: cannot create a file in \/proc/m);
      expect(sandbox.stats().cleanRequests).toBe(0);
      expect(existsSync(join(other.dir, 'out.csv'))).toBe(false);
      other.cleanup();
    } finally {
      await sandbox.close();
    }
  });
});
