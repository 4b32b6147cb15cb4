// A prompt on a real terminal (tmux) follows the command's colour, as every other line of mailclean does: coloured
// by default, plain with --no-color or NO_COLOR.
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TestHome } from '../helpers/cli.js';
import { describeWithTmux } from '../helpers/tmux.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');
/** A code that sets a colour or boldness, as tmux writes what the pane shows. */
const COLOUR = /\x1b\[[0-9;]*[1-9][0-9;]*m/;

describeWithTmux('test/e2e/prompt-color-tmux.test.ts', 'a prompt on a terminal', (tmux) => {
  let home: TestHome;
  beforeEach(() => {
    home = new TestHome();
  });
  afterEach(() => home.cleanup());

  /** The screen of `login` asking for the email (before anything is sent), with its colour codes. */
  async function emailPrompt(flags: string[], env: Record<string, string> = {}): Promise<string> {
    const argv = [process.execPath, BIN, ...flags, '--api-url', 'http://127.0.0.1:9', 'login', '--service', 'platform'];
    const session = await tmux.start(argv, home.env({ TERM: 'xterm', ...env }), home.dir);
    await tmux.waitFor(session, 'Email:');
    const screen = (await tmux.screen(session, true)).join('\n');
    await tmux.send(session, ['C-c']);
    await tmux.waitFor(session, '[exit');
    return screen;
  }

  it('is coloured by default, and plain with --no-color or NO_COLOR', async () => {
    expect(await emailPrompt([])).toMatch(COLOUR);
    expect(await emailPrompt(['--no-color'])).not.toMatch(COLOUR);
    expect(await emailPrompt([], { NO_COLOR: '1' })).not.toMatch(COLOUR);
  });
});
