import { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { type Clock, realClock } from '../clock.js';
import { isCi } from '../config/keyring.js';
import { type SecretSet, secretsOf } from '../secrets.js';
import type { InputStream, IO, OutputStream } from './io.js';
import { formatJson, type JsonFlag, selectFields } from './json.js';
import type { Signals } from './signals.js';
import { COLOR, PLAIN, STYLE_MARK, type Style, wantsColor } from './style.js';

/** What a terminal acts on: C0 controls but tab and newline, DEL, C1 controls, and a CR not before a newline. */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/g;
const MARKS = new RegExp(`${STYLE_MARK}(\\d+)m`, 'g');

/** Text as a terminal may receive it: every control character escaped, then the colour marks made codes. */
export function forTerminal(text: string): string {
  return escapeControls(text).replace(MARKS, '\u001b[$1m');
}

/** Every control character shown escaped (`\x1b`), nothing else changed: the colour marks of `style` stay marks. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Colour marks as the terminal codes they stand for, and back: a table is measured with the codes, which take no room. */
export const marksAsCodes = (text: string): string => text.replace(MARKS, '\u001b[$1m');
export const codesAsMarks = (text: string): string => text.replace(/\u001b\[(\d+)m/g, `${STYLE_MARK}$1m`);

/** A stream to a terminal through `forTerminal`, keeping characters and CRLFs split across chunks whole. */
function escapedOn(terminal: OutputStream): OutputStream {
  const decoder = new StringDecoder('utf8');
  let held = '';
  const pass = (text: string, done: (error?: Error | null) => void) => {
    const whole = held + text;
    held = whole.endsWith('\r') ? '\r' : '';
    terminal.write(forTerminal(held ? whole.slice(0, -1) : whole), done);
  };
  return new Writable({
    write: (chunk: Buffer, _encoding, done) => pass(decoder.write(chunk), done),
    final: (done) => {
      pass(decoder.end(), () => undefined);
      terminal.write(forTerminal(held), done);
    },
  });
}

/** Text for a pipe or a file: byte for byte, without colour marks. */
function withoutMarks(text: string): string {
  return text.includes(STYLE_MARK) ? text.replace(MARKS, '') : text;
}

/** The global flags these streams heed (commander's --no-color and --no-input as `color` and `input` false). */
export interface StreamFlags {
  color?: boolean;
  input?: boolean;
  quiet?: boolean;
  debug?: boolean;
}

/** --debug or MAILCLEAN_DEBUG=1: decided here only. */
export function debugWanted(flag: boolean | undefined, env: Record<string, string | undefined>): boolean {
  return flag === true || env.MAILCLEAN_DEBUG === '1';
}

/**
 * The streams of a command and the facts about them (terminal, colour, prompting), and the ways a command writes: data
 * on stdout (`out`, `json`), everything else on stderr.
 */
export class IOStreams {
  readonly stdin: InputStream;
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly env: Record<string, string | undefined>;
  readonly signals: Signals;
  readonly clock: Clock;
  /** Whether what this writes for a person is coloured (prompts follow it too). */
  readonly color: boolean;
  readonly style: Style;
  readonly debugEnabled: boolean;
  /** Masked in every line this writes to stderr; commands add the passwords they read. */
  readonly secrets: SecretSet;

  /** `raw`: the IO these streams wrap, for code that takes the raw streams (prompts). */
  constructor(
    readonly raw: IO,
    private readonly flags: StreamFlags = {},
  ) {
    ({ stdin: this.stdin, stdout: this.stdout, stderr: this.stderr, env: this.env, signals: this.signals } = raw);
    this.clock = raw.clock ?? realClock;
    this.color = wantsColor(raw.stderr, raw.env, flags.color);
    this.style = this.color ? COLOR : PLAIN;
    this.debugEnabled = debugWanted(flags.debug, raw.env);
    this.secrets = raw.secrets ?? secretsOf(raw.env);
  }

  get quiet(): boolean {
    return this.flags.quiet === true;
  }

  get isStdoutTTY(): boolean {
    return this.stdout.isTTY === true;
  }

  get isStderrTTY(): boolean {
    return this.stderr.isTTY === true;
  }

  /** Prompts only on a terminal, and never with --no-input, MAILCLEAN_NO_INPUT=1 or CI set. */
  get canPrompt(): boolean {
    const env = this.env;
    if (this.flags.input === false) return false;
    if (env.MAILCLEAN_NO_INPUT === '1' || env.MAILCLEAN_NO_INPUT === 'true') return false;
    if (isCi(env)) return false;
    return this.stdin.isTTY === true && this.stdout.isTTY === true;
  }

  /** stdout for rows written in bulk (clean's output): escaped on a terminal, byte for byte to a pipe or a file. */
  rowsOut(): OutputStream {
    return this.isStdoutTTY ? escapedOn(this.stdout) : this.stdout;
  }

  /** Text for a person on stdout: escaped wherever it goes (a pager or a later `cat` acts on controls too). */
  out(text: string): void {
    this.stdout.write(this.isStdoutTTY ? forTerminal(text) : escapeControls(withoutMarks(text)));
  }

  /** Data on stdout (a service's answer, a token, JSON): escaped on a terminal, byte for byte to a pipe or a file. */
  data(text: string): void {
    this.stdout.write(this.isStdoutTTY ? forTerminal(text) : withoutMarks(text));
  }

  json(value: unknown, flag: JsonFlag, fields: readonly string[]): void {
    this.data(formatJson(selectFields(value, flag, fields)));
  }

  /** A line of the conversation on stderr (--quiet does not silence it), escaped: it is never data. */
  say(text: string): void {
    this.stderr.write(`${forTerminal(this.secrets.redact(text))}\n`);
  }

  /** Informational line on stderr; --quiet silences it. */
  note(message: string): void {
    if (!this.quiet) this.say(message);
  }

  warn(message: string): void {
    this.say(`${this.style.yellow('warning:')} ${message}`);
  }

  debug(line: string): void {
    if (this.debugEnabled) this.say(this.style.dim(`debug: ${line}`));
  }
}
