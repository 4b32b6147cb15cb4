// Ctrl-D at a prompt, in a real process on a real terminal (util-linux's `script` gives it a pty): the prompt ends
// with one line and exit 1, never Node's "unsettled top-level await" warning, never 130 (no signal came).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestHome } from '../helpers/cli.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');
const SCRIPT = '/usr/bin/script';
// util-linux's `script` (Debian's bsdutils, an essential package) is on every Debian machine; say so if not here.
const hasScript = existsSync(SCRIPT);
if (!hasScript) console.log(`test/e2e/prompt-eof.test.ts: skipped, ${SCRIPT} (util-linux) is not installed`);

describe.skipIf(!hasScript)('Ctrl-D at the login prompt, on a terminal', () => {
  let home: TestHome;
  beforeEach(() => {
    home = new TestHome();
  });
  afterEach(() => home.cleanup());

  it('ends at once: "the input ended", exit 1, no warning from Node', async () => {
    const child = spawn(SCRIPT, ['-qec', `${process.execPath} ${BIN} login`, '/dev/null'], {
      env: { ...home.env(), TERM: 'dumb' } as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: 20_000,
    });
    let shown = '';
    let pressed = false;
    child.stdout.on('data', (d: Buffer) => {
      shown += d.toString();
      // Ctrl-D once the question shows (the terminal is then in raw mode, so it arrives as a key press).
      if (!pressed && shown.includes('Email:')) {
        pressed = true;
        child.stdin.write('\x04');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.destroy();
    expect(pressed, shown).toBe(true);
    expect(code, shown).toBe(1);
    expect(shown).toMatch(/error: no answer: the input ended \(Ctrl-D\)/);
    expect(shown).not.toMatch(/unsettled top-level await|cancelled|Interrupted/);
  });
});
