// The action's run step splits `args` into words without a shell: what a workflow builds from a pull request's title
// or a branch name is passed to mailclean as text, never run. action/run.sh itself, in bash, with a stand-in for the
// installed mailclean that writes down the words it was given.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const RUN = join(import.meta.dirname, '..', '..', 'action', 'run.sh');

describe("the action's args", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mailclean-action-args-'));
    // Writes its arguments as JSON, then exits 0 as mailclean would.
    writeFileSync(
      join(dir, 'mailclean'),
      `#!/usr/bin/env node\nrequire('node:fs').writeFileSync(${JSON.stringify(join(dir, 'argv.json'))}, JSON.stringify(process.argv.slice(2)));\n`,
      { mode: 0o755 },
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = (args: string) => {
    const res = spawnSync('bash', [RUN], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        MAILCLEAN: join(dir, 'mailclean'),
        MAILCLEAN_ARGS: args,
        GITHUB_OUTPUT: join(dir, 'output'),
        RUNNER_TEMP: dir,
      },
      encoding: 'utf8',
    });
    const argv = existsSync(join(dir, 'argv.json'))
      ? (JSON.parse(readFileSync(join(dir, 'argv.json'), 'utf8')) as string[])
      : undefined;
    return { code: res.status, stdout: res.stdout, argv };
  };

  it('$(…), backticks, ; and | are passed as text, nothing runs', () => {
    const res = run('verify ok@example.com $(touch pwned) `touch pwned2`; touch pwned3 | touch pwned4 ${HOME}');
    expect(res.code).toBe(0);
    expect(res.argv).toEqual([
      'verify',
      'ok@example.com',
      '$(touch',
      'pwned)',
      '`touch',
      'pwned2`;',
      'touch',
      'pwned3',
      '|',
      'touch',
      'pwned4',
      '${HOME}',
    ]);
    for (const file of ['pwned', 'pwned2', 'pwned3', 'pwned4']) expect(existsSync(join(dir, file))).toBe(false);
  });

  it('quotes group words and newlines separate them, as the README says', () => {
    const res = run(`clean 'my list.csv' -o "out put.csv"\n--fail-when 'invalid>5%' --column it\\'s`);
    expect(res.argv).toEqual([
      'clean',
      'my list.csv',
      '-o',
      'out put.csv',
      '--fail-when',
      'invalid>5%',
      '--column',
      "it's",
      '--summary-json',
      expect.stringMatching(/mailclean-summary-\d+\.json$/),
    ]);
  });

  it('an unclosed quote is an error annotation and exit 2, nothing run', () => {
    const res = run("clean 'list.csv -o out.csv");
    expect(res.code).toBe(2);
    expect(res.stdout).toMatch(/^::error title=mailclean::args cannot be split into words .*close each quote$/m);
    expect(res.argv).toBeUndefined();
    expect(readFileSync(join(dir, 'output'), 'utf8')).toBe('exit-code=2\n');
  });
});
