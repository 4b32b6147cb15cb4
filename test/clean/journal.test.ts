// The journal: a lock left by a dead run, and damaged lines skipped with one warning.
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server.js';
import { TestHome } from '../helpers/cli.js';

function list(n: number): string {
  return `email\n${Array.from({ length: n }, (_, i) => `j${i}@example.com`).join('\n')}\n`;
}

describe('the journal', () => {
  let sandbox: SandboxHandle;
  let home: TestHome;
  let env: Record<string, string>;
  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0, plan: 'unlimited', rate: { requests: 4, windowMs: 1_000 } });
    home = new TestHome();
    env = { MAILCLEAN_API_URL: sandbox.url, MAILCLEAN_CLEAN_URL: sandbox.url };
    const reg = await home.run(['register', '--service', 'clean', '--name', 'T', '--email', 'journal@example.com', '--password-stdin'], { stdin: 'a long password', env });
    expect(reg.code, reg.stderr).toBe(0);
  });
  afterEach(async () => {
    await sandbox.close();
    home.cleanup();
  });

  function journalFile(): string {
    const dir = join(home.dataDir, 'journals');
    const [name] = readdirSync(dir).filter((f) => f.endsWith('.ndjson'));
    return join(dir, name!);
  }

  it('a lock left by a dead run does not block the next', async () => {
    const input = join(home.dir, 'list.csv');
    writeFileSync(input, list(10));
    expect((await home.run(['clean', input, '-o', join(home.dir, 'out.csv')], { env })).code).toBe(0);
    writeFileSync(`${journalFile()}.lock`, '2147483646\n');
    const again = await home.run(['clean', input, '-o', join(home.dir, 'out.csv'), '--restart'], { env });
    expect(again.code, again.stderr).toBe(0);
  });

  it('lines of the wrong shape or garbage are skipped with one warning; the rest is reused', async () => {
    const input = join(home.dir, 'list.csv');
    writeFileSync(input, list(120));
    const first = await home.run(['clean', input, '-o', join(home.dir, 'first.csv')], { env });
    expect(first.code, first.stderr).toBe(0);
    const file = journalFile();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    // The first batch's line is damaged; two more lines of nonsense are added.
    writeFileSync(file, [`${lines[0]!.slice(0, 40)}garbage`, ...lines.slice(1), '{"r":[null]}', '{"r":"x"}', ''].join('\n'));
    appendFileSync(file, '{"r":[{"key":"torn');

    const out = join(home.dir, 'out.csv');
    const res = await home.run(['clean', input, '-o', out, '--resume'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(new RegExp(`^warning: 3 lines of ${file} could not be read and were skipped: those addresses are checked again \\(--restart discards the journal\\)$`, 'm'));
    expect(sandbox.stats().addressesCharged).toBe(120 + 50);
    expect(readFileSync(out, 'utf8')).not.toContain('unchecked');
  });
});
