// The test variant of a run's streams (as the GitHub CLI's iostreams.Test()): a Factory over captured stdout and
// stderr, a stdin, and chosen TTY facts, so a command can be called with typed options, without the parser.
import { PassThrough, Readable } from 'node:stream';
import { Factory, type GlobalOptions } from '../../src/factory.js';
import { Signals } from '../../src/io/signals.js';
import { Capture, type TestHome } from './cli.js';

export interface TestStreams {
  f: Factory;
  stdout(): string;
  stderr(): string;
  signals: Signals;
}

export function testFactory(
  home: TestHome,
  opts: { tty?: boolean; stdin?: string; env?: Record<string, string | undefined>; globals?: GlobalOptions } = {},
): TestStreams {
  const stdout = new Capture(opts.tty === true);
  const stderr = new Capture(opts.tty === true);
  const stdin = opts.stdin !== undefined ? Readable.from([Buffer.from(opts.stdin)]) : new PassThrough().end();
  Object.assign(stdin, { isTTY: opts.tty === true });
  const signals = new Signals();
  const f = new Factory({ stdin, stdout, stderr, env: home.env(opts.env), cwd: home.dir, signals }, opts.globals ?? {});
  return { f, stdout: () => stdout.text, stderr: () => stderr.text, signals };
}
