// What a service run loads before its first request: the write pass (finish-run.ts and the output's modules) waits
// for the first wait for the rate limit or the end of the checking, so it is not among the modules the first request
// waits for. The CLI runs as a user starts it (bin/mailclean.js), a resolve hook listing what it loads as it goes.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHome } from '../helpers/cli.js';
import { eventually, startGate } from '../helpers/gate.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');

/** Loaded with --import: appends each module's URL to `log` as it is resolved, in the thread that loads it. */
function resolveLog(log: string): string {
  const hook = `
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');
    return resolved;
  },
});`;
  return `data:text/javascript,${encodeURIComponent(hook)}`;
}

const WRITE_PASS = /\/dist\/clean\/(run\/finish-run|write\/write-rows|run\/dry-run)\.js$/m;

describe('a service run before its first request', () => {
  const sandboxes = useSandboxes();
  const home = useHome();

  it('has not loaded the write pass when its first requests are out, and loads it to write the rows', {
    timeout: 60_000,
  }, async () => {
    // The requests wait at a gate in front of the sandbox: while they do, the run has sent and heard nothing back.
    const sandbox = await sandboxes.start({ plan: 'unlimited' });
    await registered(home(), sandbox);
    const gate = await startGate(sandbox.url);
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, `email\n${Array.from({ length: 120 }, (_, i) => `f${i}@example.com`).join('\n')}\n`);
    const log = join(home().dir, 'resolved.txt');
    writeFileSync(log, '');
    const out = join(home().dir, 'out.csv');
    const args = ['--import', resolveLog(log), BIN, 'clean', input, '-o', out, '--yes', '--no-precheck'];
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...home().env({ MAILCLEAN_CLEAN_URL: gate.url }) },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const done = new Promise<number | null>((resolve) => child.on('close', resolve));
    let beforeAnswers: string;
    try {
      expect(await eventually(() => gate.waiting() > 0), stderr).toBe(true);
      beforeAnswers = readFileSync(log, 'utf8');
    } finally {
      gate.open();
    }
    const code = await done;
    await gate.close();
    expect(code, stderr).toBe(0);
    expect(beforeAnswers).toMatch(/\/dist\/clean\/run\/run-clean\.js$/m);
    expect(beforeAnswers).not.toMatch(WRITE_PASS);
    expect(readFileSync(log, 'utf8')).toMatch(/\/dist\/clean\/run\/finish-run\.js$/m);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(121);
    expect(sandbox.stats().addressesCharged).toBe(120);
  });
});
