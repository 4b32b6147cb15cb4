// What a clean run leaves for people and CI to look at: --summary-json, the GitHub job summary, --fail-when,
// and the breakdown as bars on a terminal.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../../src/sandbox/server.js';
import { TestHome, useHome } from '../../helpers/cli.js';
import { registered, useSandboxes } from '../../helpers/sandbox.js';

const LIST = [
  'email,name',
  'ann@example.com,Ann',
  'ann@Example.com,Ann again',
  'bob@example.org,Bob',
  'x@mailinator.com,Disposable',
  'admin@example.com,Role',
  ',Blank',
  'not-an-address,Bad',
  'cy@example.com,Cy',
].join('\n');

describe('clean: the run summary', () => {
  const sandboxes = useSandboxes();
  let sandbox: SandboxHandle;
  let home: TestHome;
  let input: string;
  beforeEach(async () => {
    sandbox = await sandboxes.start({ plan: 'unlimited' });
    home = new TestHome();
    await registered(home, sandbox);
    input = join(home.dir, 'list.csv');
    writeFileSync(input, `${LIST}\n`);
  });
  afterEach(() => home.cleanup());

  it('--summary-json: every field, for a known list', async () => {
    const out = join(home.dir, 'keep.csv');
    const drop = join(home.dir, 'drop.csv');
    const file = join(home.dir, 'summary.json');
    const res = await home.run([
      'clean',
      input,
      '-o',
      out,
      '--only',
      'valid',
      '--rejects',
      drop,
      '--summary-json',
      file,
    ]);
    expect(res.code, res.stderr).toBe(0);
    const s = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(s)).toEqual([
      'version',
      'input',
      'checker',
      'service',
      'startedAt',
      'finishedAt',
      'durationMs',
      'rows',
      'unique',
      'duplicates',
      'blank',
      'malformed',
      'statuses',
      'reasons',
      'serviceStatuses',
      'disposable',
      'role',
      'suggestions',
      'providers',
      'topDomains',
      'answered',
      'precheck',
      'spent',
      'requests',
      'retries',
      'allowanceLeft',
      'unchecked',
      'outputs',
      'exitCode',
      'ragged',
      'extracted',
      'stopped',
      'failedWhen',
    ]);
    expect(s).toMatchObject({
      version: 1,
      input,
      checker: 'service',
      service: sandbox.url,
      rows: 8,
      unique: 5,
      duplicates: 1,
      blank: 1,
      malformed: 1,
      statuses: { valid: 4, risky: 2, invalid: 2 },
      reasons: { blank: 1, disposable: 1, syntax: 1 },
      serviceStatuses: { valid: 4, risky: 1 },
      disposable: 1,
      suggestions: {},
      // No DNS answered: no row's provider is known.
      providers: {},
      answered: { fromJournal: 0, fromCache: 0, sent: 4 },
      // DNS does not answer in tests (unless one is started): the precheck says why its domain checks were skipped,
      // and still decides the disposable domain, which needs no DNS.
      precheck: { saved: 1, byReason: { disposable: 1 }, skipped: 'ECONNREFUSED' },
      spent: 4,
      requests: 1,
      retries: 0,
      allowanceLeft: null,
      unchecked: { rows: 0, reason: null, message: null },
      outputs: [
        { path: out, role: 'output', rows: 4 },
        { path: drop, role: 'rejects', rows: 4 },
      ],
      exitCode: 0,
      ragged: { rows: 0, lines: [] },
      extracted: 0,
    });
    expect(Object.keys(s.statuses)).toEqual(['valid', 'risky', 'invalid']);
    expect(s.topDomains[0]).toEqual({ domain: 'example.com', rows: 4, statuses: { valid: 3, risky: 1 } });
    expect(s.topDomains.map((d: { domain: string }) => d.domain)).toEqual([
      'example.com',
      'example.org',
      'mailinator.com',
    ]);
    expect(Date.parse(s.finishedAt) - Date.parse(s.startedAt)).toBe(s.durationMs);

    // A second run answers everything from the journal and the precheck: the summary says so, and nothing is spent.
    const again = await home.run(['clean', input, '-o', out, '--summary-json', file]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      answered: { fromJournal: 4, fromCache: 0, sent: 0 },
      precheck: { saved: 1 },
      spent: 0,
      requests: 0,
    });
  });

  it('appends a Markdown job summary when GITHUB_STEP_SUMMARY names a file', async () => {
    const step = join(home.dir, 'step-summary.md');
    writeFileSync(step, '# Earlier step\n');
    const out = join(home.dir, 'out.csv');
    const res = await home.run(['clean', input, '-o', out], { env: { GITHUB_STEP_SUMMARY: step } });
    expect(res.code, res.stderr).toBe(0);
    const md = readFileSync(step, 'utf8');
    expect(md.startsWith('# Earlier step\n### mailclean: ')).toBe(true);
    expect(md).toContain('Every row decided.');
    expect(md).toContain(
      '8 rows, 5 unique addresses, checked by the cleaning service: spent 4 addresses in 1 request.',
    );
    expect(md).toContain(
      '| Status | Rows | Share |\n| --- | ---: | ---: |\n| valid | 4 | 50.0% |\n| risky | 2 | 25.0% |\n| invalid | 2 | 25.0% |\n',
    );
    expect(md).toContain(`Outputs: \`${out}\` (8 rows).`);
  });

  it('--fail-when: exit 5 when a condition holds, with the outputs written; 0 when none does; 2 when malformed', async () => {
    const out = join(home.dir, 'out.csv');
    const over = await home.run(['clean', input, '-o', out, '--fail-when', 'invalid>20%,disposable>=2']);
    expect(over.code).toBe(5);
    expect(over.stderr).toMatch(/^fail-when: invalid is 25\.0% of rows \(invalid>20%\)$/m);
    expect(over.stderr).not.toMatch(/disposable is/);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(9);

    const step = join(home.dir, 'step.md');
    const summaryFile = join(home.dir, 's.json');
    const report = join(home.dir, 'r.html');
    const gated = await home.run(
      ['clean', input, '-o', out, '--summary-json', summaryFile, '--report', report, '--fail-when', 'invalid>20%'],
      { env: { GITHUB_STEP_SUMMARY: step } },
    );
    expect(gated.code).toBe(5);
    const md = readFileSync(step, 'utf8');
    expect(md).toContain('**Failed by --fail-when** (exit 5): `invalid>20% (invalid is 25.0% of rows)`.');
    expect(md).toContain(`Outputs: \`${out}\` (8 rows), \`${summaryFile}\`, \`${report}\`.`);
    expect(JSON.parse(readFileSync(summaryFile, 'utf8'))).toMatchObject({
      exitCode: 5,
      failedWhen: ['invalid>20% (invalid is 25.0% of rows)'],
      stopped: null,
    });

    const under = await home.run(['clean', input, '-o', out, '--fail-when', 'invalid>30%,unchecked>0']);
    expect(under.code, under.stderr).toBe(0);

    for (const bad of ['invalid>', 'invlid>5%', 'invalid=5', 'invalid>200%']) {
      const res = await home.run(['clean', input, '-o', out, '--fail-when', bad]);
      expect(res.code, bad).toBe(2);
      expect(res.stderr).toMatch(/^error: --fail-when: /);
    }
  });

  it('on a terminal, the breakdown is a bar chart of statuses and top reasons', async () => {
    const res = await home.run(['clean', input, '-o', join(home.dir, 'out.csv')], {
      tty: true,
      env: { NO_COLOR: '1' },
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(
      [
        'Statuses',
        `  valid    ${'█'.repeat(15)}${'░'.repeat(15)}  4   50.0%`,
        `  risky    ${'█'.repeat(8)}${'░'.repeat(22)}  2   25.0%`,
        `  invalid  ${'█'.repeat(8)}${'░'.repeat(22)}  2   25.0%`,
        'Top reasons',
        `  blank       ${'█'.repeat(4)}${'░'.repeat(26)}  1   12.5%`,
      ].join('\n'),
    );
  });
});

describe.each(['spec', 'alt'] as const)('clean: a run that ends in failure (%s shape)', (shape) => {
  const sandboxes = useSandboxes();
  const home = useHome();

  it('a refused token (exit 4): the existing output is left as it was; the summary, report and job summary say why', async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited', shape });
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, `${LIST}\n`);
    const out = join(home().dir, 'out.csv');
    writeFileSync(out, 'the cleaned list of an earlier run\n');
    const [summary, report, step] = ['s.json', 'r.html', 'step.md'].map((name) => join(home().dir, name));
    const res = await home().run(
      ['--clean-url', sandbox.url, 'clean', input, '-o', out, '--summary-json', summary!, '--report', report!],
      {
        env: { MAILCLEAN_CLEAN_TOKEN: 'expired-token-0123456789', GITHUB_STEP_SUMMARY: step },
      },
    );
    expect(res.code).toBe(4);
    expect(res.stderr).toMatch(/^error: .*refused the credentials/m);
    expect(res.stderr).toContain(`Nothing was checked: ${out} is left as it was.`);
    expect(readFileSync(out, 'utf8')).toBe('the cleaned list of an earlier run\n');
    const s = JSON.parse(readFileSync(summary!, 'utf8'));
    expect(s).toMatchObject({ exitCode: 4, stopped: { reason: 'auth' }, outputs: [], spent: 0 });
    expect(readFileSync(step!, 'utf8')).toMatch(/^\*\*Stopped\*\* \(exit 4, auth\): .*refused the credentials/m);
    expect(readFileSync(report!, 'utf8')).toContain('refused the credentials');
  });
});
