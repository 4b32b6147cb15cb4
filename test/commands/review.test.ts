// `mailclean review`: refused without a terminal, in one line; `--check` checks the fixes of a list through the
// account as `verify` does (the sandbox in both answer shapes: each fix paid once, then from the cache). The keys on
// a real terminal are driven under tmux in test/e2e/review-tmux.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectError, useHome } from '../helpers/cli.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';

const HEAD = 'name,email,email_status,email_valid,email_disposable,email_valid_domain,email_reason,email_checked_at';
const FIXED = [
  `${HEAD},email_free,email_role,email_suggestion,email_fixed`,
  'Ann,ann@gmial.com,risky,true,false,true,possible_typo,2026-01-01T00:00:00Z,false,false,ann@gmail.com,ann@gmail.com',
  'Bob,bob@example.com,valid,true,false,true,,2026-01-01T00:00:00Z,false,false,,',
  'Ann again,ann@gmial.com,risky,true,false,true,possible_typo,2026-01-01T00:00:00Z,false,false,ann@gmail.com,ann@gmail.com',
  'Cy,cy@hotmial.com,risky,true,false,true,possible_typo,2026-01-01T00:00:00Z,false,false,cy@hotmail.com,cy@hotmail.com',
];

describe('review without a terminal', () => {
  const home = useHome();

  it('refuses in one line, exit 2, naming what does the job in a pipeline', async () => {
    const path = join(home().dir, 'list.csv');
    writeFileSync(path, 'email\nann@gmial.com\n');
    const res = await home().run(['review', path]);
    expectError(
      res,
      2,
      `error: review needs a terminal; to fix typos in a pipeline use: mailclean clean ${path} --fix-typos`,
    );
    expect(readFileSync(path, 'utf8')).toBe('email\nann@gmial.com\n');
  });

  it('on a terminal, a list with nothing to review says so and changes nothing', async () => {
    const path = join(home().dir, 'list.csv');
    writeFileSync(path, 'email,name\nann@gmail.com,Ann\n');
    const res = await home().run(['review', path], { tty: true });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/list\.csv: no typo suggestion to review/);
    expect(res.stdout).toBe('');
  });

  it('a side file that is not a review of its own is refused in one line, and kept', async () => {
    const path = join(home().dir, 'list.csv');
    writeFileSync(path, 'email\nann@gmial.com\n');
    writeFileSync(`${path}.review.json`, 'notes');
    const res = await home().run(['review', path], { tty: true });
    expectError(res, 2, `error: ${path}.review.json: not a review's saved decisions`);
    expect(readFileSync(`${path}.review.json`, 'utf8')).toBe('notes');
  });

  it('--check with no fix in the list says so', async () => {
    const path = join(home().dir, 'list.csv');
    writeFileSync(path, 'email\nann@gmial.com\n');
    const res = await home().run(['review', path, '--check']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/no fix to check/);
  });
});

describe.each(['spec', 'alt'] as const)('review --check with the cleaning service (%s shape)', (shape) => {
  const home = useHome();
  const sandboxes = useSandboxes();

  it('pays each fix once, writes its verdict into every row that holds it, and a second check costs nothing', async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited', shape });
    await registered(home(), sandbox);
    const path = join(home().dir, 'fixed.csv');
    writeFileSync(path, `${FIXED.join('\n')}\n`);
    const first = await home().run(['review', path, '--check']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('');
    expect(first.stderr).toMatch(/checked 2 fixes: 2 valid; written/);
    expect(sandbox.stats().addressesCharged).toBe(2);
    const rows = readFileSync(path, 'utf8').split('\n');
    expect(rows[0]).toBe(FIXED[0]);
    for (const at of [1, 3, 4]) {
      expect(rows[at]).toMatch(/^[^,]+,[^,]+,valid,true,false,true,,\d{4}-/);
      expect(rows[at]!.split(',').slice(-3, -1)).toEqual(FIXED[at]!.split(',').slice(-3, -1));
    }
    expect(rows[2]).toBe(FIXED[2]);
    const again = await home().run(['review', path, '--check']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/checked 2 fixes: 2 valid \(2 from the cache\)/);
    expect(sandbox.stats().addressesCharged).toBe(2);
  });
});
