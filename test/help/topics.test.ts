// `mailclean help TOPIC` and mailclean(1): printed from the tables the README is held to here, and the man page written
// from the command tree (every command and flag), current in man/ after a build, and read by groff without a warning.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { REASON_MEANINGS, RESULT_COLUMNS, STATUSES } from '../../src/clean/verdict/verdict.js';
import { manPage } from '../../src/help/man.js';
import { HELP_TOPICS } from '../../src/help/topic-names.js';
import { ENVIRONMENT, EXIT_CODES } from '../../src/help/topics.js';
import { Signals } from '../../src/io/signals.js';
import { commandTree } from '../../src/main.js';
import { VERSION } from '../../src/version.js';
import { useHome } from '../helpers/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ioOf = (cwd: string) => ({
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: {},
  cwd,
  signals: new Signals(),
});
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const groffAbsent = spawnSync('groff', ['--version']).error
  ? ' (skipped: groff is not installed; .ci/run installs it)'
  : '';

/** The README section's table: the backticked names (or bare codes) in its first column. */
function readmeTable(heading: string): string[] {
  const section = README.slice(README.indexOf(`\n## ${heading}\n`) + 1).split('\n## ')[0]!;
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| ---') && !/^\| (variable|code) /.test(line))
    .flatMap((line) => {
      const first = line.split('|')[1]!;
      const names = [...first.matchAll(/`([A-Z_0-9]+)(?:=[^`]*)?`/g)].map((m) => m[1]!);
      return names.length > 0 ? names : first.split(',').map((code) => code.trim());
    });
}

describe('help topics', () => {
  const home = useHome();

  it('each prints on stdout and exits 0; the root help lists them; an unknown one is a usage error', async () => {
    for (const topic of Object.keys(HELP_TOPICS)) {
      const res = await home().run(['help', topic]);
      expect(res.code, topic).toBe(0);
      expect(res.stderr).toBe('');
      expect(res.stdout.length, topic).toBeGreaterThan(200);
    }
    const root = await home().run(['--help']);
    for (const topic of Object.keys(HELP_TOPICS)) expect(root.stdout).toMatch(new RegExp(`^  ${topic} +\\S`, 'm'));
    const bogus = await home().run(['help', 'statusses']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(
      /^error: no command or help topic named "statusses"\nhint: help topics: environment, exit-codes/,
    );
    expect((await home().run(['help', 'clean'])).stdout).toMatch(/^Usage: mailclean clean /);
  });

  it('the `mailclean me …` examples they give work (on the built-in sandbox)', async () => {
    const examples: string[] = [];
    for (const topic of Object.keys(HELP_TOPICS)) {
      const text = (await home().run(['help', topic])).stdout;
      for (const [, line] of text.matchAll(/`mailclean (me[^`]*)`/g)) examples.push(line!);
    }
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      const res = await home().run(example.split(' '));
      expect(res.code, `mailclean ${example}: ${res.stderr}`).toBe(0);
    }
  });

  it('environment and exit-codes name what the README tables name', async () => {
    expect(ENVIRONMENT.map((e) => e.name).sort()).toEqual(readmeTable('Environment').sort());
    expect(EXIT_CODES.map((e) => e.name)).toEqual(readmeTable('Exit codes'));
    const env = (await home().run(['help', 'environment'])).stdout;
    for (const { name } of ENVIRONMENT) expect(env).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it('statuses names every status, reason and result column', async () => {
    const text = (await home().run(['help', 'statuses'])).stdout;
    for (const word of [...STATUSES, ...Object.keys(REASON_MEANINGS), ...RESULT_COLUMNS])
      expect(text, word).toContain(word);
  });
});

describe('mailclean(1)', () => {
  const home = useHome();

  it('has every command, subcommand and flag of the tree, and the topics’ sections', async () => {
    const tree = await commandTree(ioOf(home().dir));
    const page = manPage(tree, VERSION);
    const walk = (cmd: CommandUnknownOpts, path: string[]): void => {
      for (const sub of cmd.commands as CommandUnknownOpts[]) {
        if (sub.name() === 'help') continue;
        const name = [...path, sub.name()];
        expect(page, name.join(' ')).toContain(`.SS "${name.join(' ')} `.replace(/-/g, '\\-'));
        for (const option of sub.options)
          if (!option.hidden && option.long)
            expect(page, `${name.join(' ')} ${option.long}`).toContain(option.long.replace(/-/g, '\\-'));
        walk(sub, name);
      }
    };
    walk(tree, ['mailclean']);
    for (const section of ['NAME', 'SYNOPSIS', 'GLOBAL OPTIONS', 'COMMANDS', 'ENVIRONMENT', 'EXIT STATUS', 'STATUSES'])
      expect(page).toContain(`\n.SH ${section}\n`);
    expect(page.split('\n').filter((line) => /^[.'](?!(TH|SH|SS|TP|B|PP|br|nf|fi)( |$))/.test(line))).toEqual([]);
  });

  it('in man/ after a build is the page the tree makes now', async () => {
    expect(readFileSync(join(ROOT, 'man', 'mailclean.1'), 'utf8')).toBe(
      manPage(await commandTree(ioOf(home().dir)), VERSION),
    );
  });

  it(`is read by groff without a warning${groffAbsent}`, {
    skip: groffAbsent !== '' && process.env.MAILCLEAN_REQUIRE_GROFF !== '1',
  }, () => {
    const res = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-z', join(ROOT, 'man', 'mailclean.1')], {
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C' },
    });
    expect(res.error).toBeUndefined();
    expect(res.status).toBe(0);
    expect(res.stderr).toBe('');
  });
});
