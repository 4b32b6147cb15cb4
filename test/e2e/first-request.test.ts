// What a service run loads before its first request: the write pass (finish-run.ts and the output's modules) is
// imported where it is used, once the checking ends, so it is not among the modules the first request waits for. The CLI runs as a user starts it (bin/mailclean.js), a resolve hook listing what it loads as it goes.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHome } from '../helpers/cli.js';
import { eventually, startGate } from '../helpers/gate.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';
import { sourceModules } from '../helpers/spawn-cli.js';

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

const WRITE_PASS = ['src/clean/run/finish-run.ts', 'src/clean/write/write-rows.ts', 'src/clean/run/dry-run.ts'];
/** The source modules of the files `log` lists (the CLI's bundle holds several a file: see sourceModules). */
const loadedSources = (log: string) => sourceModules(readFileSync(log, 'utf8').split('\n').filter(Boolean));

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
    let beforeAnswers: string[];
    try {
      expect(await eventually(() => gate.waiting() > 0), stderr).toBe(true);
      beforeAnswers = loadedSources(log);
    } finally {
      gate.open();
    }
    const code = await done;
    await gate.close();
    expect(code, stderr).toBe(0);
    expect(beforeAnswers).toContain('src/clean/run/run-clean.ts');
    expect(beforeAnswers.filter((m) => WRITE_PASS.includes(m))).toEqual([]);
    expect(loadedSources(log)).toContain('src/clean/run/finish-run.ts');
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(121);
    expect(sandbox.stats().addressesCharged).toBe(120);
  });
});
