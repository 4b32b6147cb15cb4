// A real terminal for the tests of interactive screens: a tmux server of its own (private socket, no user config),
// driven with send-keys and read with capture-pane. Where tmux is not installed those tests are skipped and say why;
// .ci/run installs it and sets MAILCLEAN_REQUIRE_TMUX=1, which turns the skip into a failure.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe } from 'vitest';

const run = promisify(execFile);

export const tmuxInstalled = spawnSync('sh', ['-c', 'command -v tmux']).status === 0;
export const tmuxRequired = process.env.MAILCLEAN_REQUIRE_TMUX === '1';
export const TMUX_SKIP_NOTE = 'skipped: tmux is not installed (apt-get install -y tmux; .ci/run installs it)';

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export class TmuxServer {
  private readonly socket = `mailclean-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private windows = 0;

  private tmux(...args: string[]): Promise<{ stdout: string }> {
    return run('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { env: { PATH: process.env.PATH } });
  }

  /**
   * Runs `argv` in a new 80x24 session with exactly `env`; once it ends, the pane shows `[exit N]` and stays.
   * Returns the session's name.
   */
  async start(argv: string[], env: Record<string, string | undefined>, cwd: string): Promise<string> {
    const name = `w${this.windows++}`;
    const assignments = Object.entries(env).flatMap(([k, v]) => (v === undefined ? [] : [quote(`${k}=${v}`)]));
    const command = `env -i ${assignments.join(' ')} ${argv.map(quote).join(' ')}; echo "[exit $?]"; exec sleep 3600`;
    await this.tmux('new-session', '-d', '-s', name, '-x', '80', '-y', '24', '-c', cwd, command);
    return name;
  }

  /** Keys as tmux names them (`a`, `Enter`, `BSpace`, `C-c`); text is sent literally with `literal`. */
  async send(session: string, keys: string[], literal = false): Promise<void> {
    await this.tmux('send-keys', '-t', session, ...(literal ? ['-l'] : []), ...keys);
  }

  /** What the pane shows now: its lines, as many as it has rows; `escapes`: with the codes of its colours. */
  async screen(session: string, escapes = false): Promise<string[]> {
    const { stdout } = await this.tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', session);
    return stdout.replace(/\n$/, '').split('\n');
  }

  /** Waits until the pane shows `text` (or matches it), then gives its lines; fails with the screen at the deadline. */
  async waitFor(session: string, text: string | RegExp, timeoutMs = 20_000): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const lines = await this.screen(session);
      const shown = lines.join('\n');
      if (typeof text === 'string' ? shown.includes(text) : text.test(shown)) return lines;
      if (Date.now() > deadline) throw new Error(`the screen never showed ${String(text)}; it shows:\n${shown}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async kill(): Promise<void> {
    await this.tmux('kill-server').catch(() => undefined);
  }
}

/**
 * A suite that needs tmux: one private server for its tests, killed after them. Where tmux is not installed the suite
 * is skipped and the file says so (unless MAILCLEAN_REQUIRE_TMUX=1 makes it fail).
 */
export function describeWithTmux(file: string, name: string, suite: (tmux: TmuxServer) => void): void {
  if (!tmuxInstalled) console.log(`${file}: ${TMUX_SKIP_NOTE}`);
  describe.runIf(tmuxInstalled || tmuxRequired)(name, () => {
    const server = new TmuxServer();
    afterAll(() => server.kill());
    suite(server);
  });
}
