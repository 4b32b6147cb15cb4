// `mailclean completion bash|zsh|fish`: scripts generated from the command tree, driven in the real shells.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_KEYS } from '../../src/config/keys.js';
import { Signals } from '../../src/io/signals.js';
import { commandTree } from '../../src/main.js';
import { TestHome } from '../helpers/cli.js';

const quote = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;
const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
// .ci/run installs both shells and sets MAILCLEAN_REQUIRE_SHELLS=1, which turns a skip into a failure.
const shellsRequired = process.env.MAILCLEAN_REQUIRE_SHELLS === '1';
const absent = (shell: string) =>
  has(shell) || shellsRequired ? '' : ` (skipped: ${shell} is not installed; apt-get install -y ${shell})`;
const zshAbsent = absent('zsh');
const fishAbsent = absent('fish');

interface Declared {
  path: string[];
  flags: string[];
  /** The choices of each flag and positional argument that has some, by flag (or `<name>`). */
  choices: Record<string, string[]>;
}

/** Every command path with the long flags and choices its definition declares, read from the tree main.ts parses. */
async function declared(): Promise<{ commands: Declared[]; globals: string[] }> {
  const home = new TestHome();
  const program = await commandTree({
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: {},
    cwd: home.dir,
    signals: new Signals(),
  });
  home.cleanup();
  const commands: Declared[] = [];
  const visit = (cmd: Command, path: string[]) => {
    const choices: Record<string, string[]> = {};
    for (const o of cmd.options) if (o.long && o.argChoices) choices[o.long] = [...o.argChoices];
    for (const a of cmd.registeredArguments) if (a.argChoices) choices[`<${a.name()}>`] = [...a.argChoices];
    if (path.length > 0) commands.push({ path, flags: cmd.options.map((o) => o.long!).filter(Boolean), choices });
    for (const sub of cmd.commands) visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
  const globals = [...program.options.map((o) => o.long!), '--help'];
  return { commands, globals };
}

/** The choices `path`'s command declares for `flag`, as completion offers them (sorted). */
function choicesOf(commands: Declared[], path: string, flag: string): string[] {
  const found = commands.find((c) => c.path.join(' ') === path)?.choices[flag];
  expect(found, `${path} ${flag} declares choices`).toBeDefined();
  return [...found!].sort();
}

describe('completion scripts', () => {
  let home: TestHome;
  let dir: string;
  const scripts: Record<string, string> = {};
  let commands: Declared[];
  let globals: string[];

  beforeAll(async () => {
    home = new TestHome();
    // The scripts sit beside the directory whose files the tests complete.
    dir = join(mkdtempSync(join(tmpdir(), 'mailclean-completion-')), 'work');
    mkdirSync(dir);
    writeFileSync(join(dir, 'list.csv'), 'email\n');
    writeFileSync(join(dir, 'notes.txt'), '');
    mkdirSync(join(dir, 'sub'));
    for (const shell of ['bash', 'zsh', 'fish']) {
      const res = await home.run(['completion', shell]);
      expect(res.code, res.stderr).toBe(0);
      scripts[shell] = join(dir, '..', `mailclean.${shell}`);
      writeFileSync(scripts[shell]!, res.stdout);
    }
    ({ commands, globals } = await declared());
  });
  afterAll(() => {
    home.cleanup();
    rmSync(join(dir, '..'), { recursive: true, force: true });
  });

  /** Runs the bash completion function for each command line (the last word is being completed). */
  function bash(lines: string[][]): string[][] {
    const calls = lines.map(
      (words) =>
        `COMP_WORDS=(${words.map(quote).join(' ')}); COMP_CWORD=${words.length - 1}; COMPREPLY=(); _mailclean; printf '%s\\n' '>>>' "\${COMPREPLY[@]}"`,
    );
    const res = spawnSync(
      'bash',
      ['--norc', '--noprofile', '-c', `source ${quote(scripts.bash!)}\n${calls.join('\n')}`],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(res.stderr).toBe('');
    return res.stdout
      .split('>>>\n')
      .slice(1)
      .map((block) => block.split('\n').filter(Boolean).sort());
  }

  it('scripts for bash, zsh and fish name the commands; another shell is a usage error', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const res = await home.run(['completion', shell]);
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('clean');
      expect(res.stdout).toContain('oem-register');
    }
    expect((await home.run(['completion', 'tcsh'])).code).toBe(2);
  });

  it('bash: commands, flags after global flags, choices, files, config keys', () => {
    const settable = PROFILE_KEYS.filter((k) => !k.secret)
      .map((k) => k.key)
      .sort();
    const cases: Array<[string[], string[]]> = [
      [['mailclean', 'cl'], ['clean']],
      [['mailclean', '--profile', 'work', 'clean', '--fo'], ['--format']],
      [['mailclean', '--api-url', 'http://127.0.0.1:9', '-q', 'clean', '--dry'], ['--dry-run']],
      [['mailclean', 'clean', '--format', ''], choicesOf(commands, 'clean', '--format')],
      [['mailclean', 'clean', '--format', '=', 'nd'], ['ndjson']], // bash splits --format=nd at '='
      [
        ['mailclean', 'clean', ''],
        ['list.csv', 'notes.txt', 'sub'],
      ],
      [['mailclean', 'clean', '-o', 'no'], ['notes.txt']],
      [['mailclean', 'clean', '--report', 'no'], ['notes.txt']], // --report <file.html>
      [['mailclean', 'runs', '--li'], ['--limit']], // `runs` is `runs list`
      [['mailclean', 'clean', '--json', '--fo'], ['--format']], // --json's value is optional
      [['mailclean', 'config', 'get', ''], settable],
      [['mailclean', 'config', 'set', 'ra'], ['rate']],
      [['mailclean', 'auth', 'token', '--service', ''], choicesOf(commands, 'auth token', '--service')],
      [['mailclean', 'login', '--service', 'c'], ['clean']],
      [['mailclean', '--profile', 'work', 'me', ''], ['update']],
      [['mailclean', 'help', 'st'], ['statuses']],
      [
        ['mailclean', 'help', 'co'],
        ['completion', 'config'],
      ],
      [['mailclean', 'completion', ''], choicesOf(commands, 'completion', '<shell>')],
      [['mailclean', 'sandbox', '--data', ''], ['sub']],
      [['mailclean', 'sandbox', '--plan', ''], choicesOf(commands, 'sandbox', '--plan')],
      [['mailclean', 'roles', '--user', ''], []],
    ];
    const replies = bash(cases.map(([words]) => words));
    cases.forEach(([words, expected], i) => expect(replies[i], words.join(' ')).toEqual(expected));
  });

  it("bash: every command's flags, and the global ones, after the command", () => {
    expect(commands.length).toBeGreaterThan(15);
    const replies = bash(commands.map((c) => ['mailclean', ...c.path, '--']));
    commands.forEach((c, i) => {
      for (const flag of [...c.flags, ...globals]) expect(replies[i], `${c.path.join(' ')} ${flag}`).toContain(flag);
    });
  });

  it("zsh and fish scripts hold every command's flags", () => {
    const zsh = readFileSync(scripts.zsh!, 'utf8');
    const zshFlags = zsh.slice(
      zsh.indexOf('_mailclean_flag_descriptions() {'),
      zsh.indexOf('_mailclean_subcommand_descriptions() {'),
    );
    const fishLines = readFileSync(scripts.fish!, 'utf8').split('\n');
    for (const c of commands) {
      const path = c.path.join(' ');
      const start = zshFlags.indexOf(`    '${path}') print -r -- '`);
      expect(start, `zsh: ${path}`).toBeGreaterThan(0);
      const block = zshFlags.slice(start, zshFlags.indexOf("' ;;", start)).replace(/^.*?-- '/, '');
      const fish = fishLines.filter((l) => l.startsWith(`complete -c mailclean -n '__mailclean_in \\'${path}\\'' `));
      for (const flag of c.flags) {
        expect(
          block.split('\n').some((l) => l.startsWith(`${flag}:`)),
          `zsh: ${path} ${flag}`,
        ).toBe(true);
        expect(
          fish.some((l) => l.includes(` -l ${flag.slice(2)} `)),
          `fish: ${path} ${flag}`,
        ).toBe(true);
      }
    }
  });

  it(`zsh: drives the completion function${zshAbsent}`, { skip: zshAbsent !== '' }, () => {
    // compadd and friends only work inside a completion widget: stand-ins print what they were given.
    const stubs = [
      'compdef() { :; }',
      'compadd() { [[ $1 == -- ]] && shift; print -r -- "$@"; }',
      '_describe() { shift 3; print -rl -- "${(@)${(P)1}%%:*}"; }',
      '_files() { print -r -- "files $*"; }',
      'compset() { :; }',
    ];
    const run = (words: string[]) =>
      spawnSync(
        'zsh',
        [
          '-f',
          '-c',
          `${stubs.join('\n')}\nsource ${quote(scripts.zsh!)}\nwords=(${words.map(quote).join(' ')}); CURRENT=${words.length}; _mailclean`,
        ],
        { cwd: dir, encoding: 'utf8' },
      );
    const lines = (words: string[]) => {
      const res = run(words);
      expect(res.stderr, words.join(' ')).toBe('');
      return res.stdout.split(/[\n ]/).filter(Boolean);
    };
    expect(lines(['mailclean', 'cl'])).toContain('clean');
    expect(lines(['mailclean', '--profile', 'work', 'clean', '--fo'])).toContain('--format');
    expect(lines(['mailclean', 'clean', '--format', ''])).toEqual(choicesOf(commands, 'clean', '--format'));
    expect(lines(['mailclean', 'clean', '--format=j'])).toEqual(choicesOf(commands, 'clean', '--format'));
    expect(lines(['mailclean', 'clean', ''])).toEqual(['files']);
    expect(lines(['mailclean', 'sandbox', '--data', ''])).toEqual(['files', '-/']);
    expect(lines(['mailclean', 'config', 'get', ''])).toContain('api-url');
  });

  it(`fish: drives complete -C${fishAbsent}`, { skip: fishAbsent !== '' }, () => {
    const complete = (line: string) => {
      const res = spawnSync('fish', ['-N', '-c', `source ${quote(scripts.fish!)}; complete -C ${quote(line)}`], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(res.stderr, line).toBe('');
      return res.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);
    };
    expect(complete('mailclean cl')).toEqual(['clean']);
    expect(complete('mailclean --profile work clean --fo')).toEqual(['--format']);
    expect(complete('mailclean clean --format ')).toEqual(choicesOf(commands, 'clean', '--format'));
    expect(complete('mailclean clean ')).toEqual(['list.csv', 'notes.txt', 'sub/']);
    expect(complete('mailclean -q me ')).toEqual(['update']);
    expect(complete('mailclean config get ra')).toEqual(['rate']);
    expect(complete('mailclean auth token --service ')).toEqual(['cdp', 'clean', 'platform']);
  });
});
