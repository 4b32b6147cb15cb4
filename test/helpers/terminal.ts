// A terminal for the CLI in-process: the answers are typed only once each question shows, as a person would.
import { PassThrough, Writable } from 'node:stream';
import { expect } from 'vitest';
import type { IO } from '../../src/io/io.js';
import { Signals } from '../../src/io/signals.js';
import { main } from '../../src/main.js';
import type { TestHome } from './cli.js';

/** Runs `argv` on a fake terminal, answering each question of `script` when it shows; checks every one was asked. */
export async function interactive(
  home: TestHome,
  argv: string[],
  /** Each question and what the user does then: types an answer, presses keys (`'\x04'`: Ctrl-D), or sends a signal. */
  script: Array<[RegExp, string | { keys: string } | { signal: 'SIGINT' | 'SIGTERM' }]>,
  env: Record<string, string | undefined> = {},
  /** `cancelUnscripted`: a question beyond the script is counted in `unscripted` and cancelled (SIGTERM) at once. */
  opts: { cancelUnscripted?: boolean } = {},
) {
  const signals = new Signals();
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  let shown = '';
  let step = 0;
  let unscripted = 0;
  // Each prompt starts reading the terminal when it is ready for its answer: type the next one then.
  stdin.on('resume', () => {
    const next = script[step];
    if (!next) {
      if (opts.cancelUnscripted) {
        unscripted++;
        setTimeout(() => signals.deliver('SIGTERM'), 5);
      }
      return;
    }
    step++;
    const action = next[1];
    setTimeout(() => {
      if (typeof action === 'string') stdin.write(`${action}\r`);
      else if ('keys' in action) stdin.write(action.keys);
      else signals.deliver(action.signal);
    }, 5);
  });
  const stderr = Object.assign(
    new Writable({
      write(chunk, _enc, done) {
        shown += chunk.toString();
        done();
      },
    }),
    // Like process.stderr, a terminal is not closed when a prompt's stream piped into it ends.
    { isTTY: true, columns: 80, end() {}, cursorTo: () => true, moveCursor: () => true, clearLine: () => true },
  );
  let stdout = '';
  const out = Object.assign(
    new Writable({
      write: (c, _e, d) => {
        stdout += c.toString();
        d();
      },
    }),
    { isTTY: true, columns: 80 },
  );
  const io: IO = { stdin, stdout: out, stderr, env: home.env(env), cwd: home.dir, signals };
  const code = await main(argv, io);
  // Every question was really asked, in order.
  let at = 0;
  for (const [question] of script) {
    const found = shown.slice(at).search(question);
    expect(found, `${question} was not asked in:\n${shown}`).toBeGreaterThanOrEqual(0);
    at += found + 1;
  }
  return { code, stdout, stderr: shown, answered: step, unscripted };
}
