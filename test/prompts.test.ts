// Prompts on a terminal: the answers are typed only once each question shows, as a person would.
import { PassThrough, Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import type { IO } from '../src/io/io.js';
import { TestHome } from './helpers/cli.js';

async function interactive(home: TestHome, argv: string[], script: Array<[RegExp, string]>) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  let shown = '';
  let step = 0;
  // Each prompt starts reading the terminal when it is ready for its answer: type the next one then.
  stdin.on('resume', () => {
    const next = script[step];
    if (!next) return;
    step++;
    setTimeout(() => stdin.write(`${next[1]}\r`), 5);
  });
  const stderr = Object.assign(
    new Writable({
      write(chunk, _enc, done) {
        shown += chunk.toString();
        done();
      },
    }),
    // Like process.stderr, a terminal is not closed when a prompt's stream piped into it ends.
    { isTTY: true, columns: 80, end() {} },
  );
  let stdout = '';
  const out = Object.assign(new Writable({ write: (c, _e, d) => ((stdout += c.toString()), d()) }), { isTTY: true, columns: 80 });
  const io: IO = { stdin, stdout: out, stderr, env: home.env(), cwd: home.dir, onSignal: () => () => undefined };
  const code = await main(argv, io);
  // Every question was really asked, in order.
  let at = 0;
  for (const [question] of script) {
    const found = shown.slice(at).search(question);
    expect(found, `${question} was not asked`).toBeGreaterThanOrEqual(0);
    at += found + 1;
  }
  return { code, stdout, stderr: shown, answered: step };
}

describe('prompts on a terminal', () => {
  let home: TestHome;
  beforeEach(() => {
    home = new TestHome();
  });
  afterEach(() => home.cleanup());

  it('register asks for what is missing, the password masked and confirmed', async () => {
    const res = await interactive(home, ['register'], [
      [/Name:/, 'Ada'],
      [/Email:/, 'ada@example.com'],
      [/Password:/, 'a secret phrase'],
      [/Password \(again\):/, 'a secret phrase'],
    ]);
    expect(res.answered).toBe(4);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).not.toContain('a secret phrase');
    expect(res.stderr).toContain('Registered ada@example.com');
  });

  it('with --no-input the same command names the missing flag instead', async () => {
    const res = await interactive(home, ['register', '--no-input'], []);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--name is required/);
  });
});
