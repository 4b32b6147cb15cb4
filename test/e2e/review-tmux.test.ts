// `mailclean review` on a real terminal (tmux, 80x24): the screen shows the row, the fix and the keys; accept,
// reject, undo, edit (a bad address refused in place), accept all of a domain, Ctrl-C with the decisions kept
// beside the list, a second review going on from them, and q writing the list, then checking the accepted fixes
// through the account (the sandbox on 127.0.0.1: each fix paid once).
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { TestHome } from '../helpers/cli.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';
import { describeWithTmux } from '../helpers/tmux.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');
const HEAD =
  'name,email,city,email_status,email_valid,email_disposable,email_valid_domain,email_reason,email_checked_at';
const typo = (name: string, typed: string, fix: string) =>
  `${name},${typed},Oslo,risky,true,false,true,possible_typo,2026-01-01T00:00:00Z,false,false,${fix}`;
const LIST = [
  `${HEAD},email_free,email_role,email_suggestion`,
  typo('Ann Lee', 'ann@gmial.com', 'ann@gmail.com'),
  typo('Bob Ray', 'bob@hotmial.com', 'bob@hotmail.com'),
  'Gus,gus@example.com,Rome,valid,true,false,true,,2026-01-01T00:00:00Z,false,false,',
  typo('Cy Dee', 'cy@gmial.com', 'cy@gmail.com'),
  typo('Di Fox', 'di@yaho.com', 'di@yahoo.com'),
  typo('Ed Fry', 'ed@gmial.com', 'ed@gmail.com'),
  typo('Fay Orr', 'fay@hotmial.com', 'fay@hotmail.com'),
];
const KEYS = 'a accept  r reject  e edit  A accept all @gmial.com  u undo  q save & quit';

describeWithTmux('test/e2e/review-tmux.test.ts', 'review on a terminal', (tmux) => {
  const sandboxes = useSandboxes();
  let home: TestHome;
  let sandbox: SandboxHandle;
  let list: string;
  beforeEach(async () => {
    home = new TestHome();
    sandbox = await sandboxes.start({ plan: 'unlimited' });
    await registered(home, sandbox);
    list = join(home.dir, 'list.csv');
    writeFileSync(list, `${LIST.join('\n')}\n`);
  });
  afterEach(() => home.cleanup());

  const review = () =>
    tmux.start([process.execPath, BIN, 'review', 'list.csv'], home.env({ NO_COLOR: '1', TERM: 'xterm' }), home.dir);

  it('decides row by row, stops on Ctrl-C keeping every decision, goes on, writes the list and checks the fixes', async () => {
    const first = await review();
    const screen = await tmux.waitFor(first, KEYS);
    // The whole screen fits 80x24: the title with the progress on one line, the keys whole on theirs.
    expect(screen.length).toBeLessThanOrEqual(24);
    expect(screen[0]).toMatch(/^mailclean review {2}list\.csv +1 of 6$/);
    expect(screen).toContain(KEYS);
    expect(screen.join('\n')).toMatch(/name +Ann Lee\n +city +Oslo/);
    expect(screen.join('\n')).toMatch(
      /typed: +ann@gmial\.com\n +fix: +ann@gmail\.com\n +status: +risky \(possible_typo\)/,
    );

    await tmux.send(first, ['a']);
    await tmux.waitFor(first, /typed: +bob@hotmial\.com/);
    await tmux.send(first, ['r']);
    await tmux.waitFor(first, /typed: +cy@gmial\.com/);
    await tmux.send(first, ['u']);
    await tmux.waitFor(first, /2 of 6[\s\S]*typed: +bob@hotmial\.com[\s\S]*undone: row 2: suggestion rejected/);

    // Edit: an address that is none is refused in place; a real one is taken.
    await tmux.send(first, ['e']);
    await tmux.waitFor(first, 'edit: bob@hotmail.com');
    await tmux.send(first, ['C-u']);
    await tmux.send(first, ['bob at hotmail'], true);
    await tmux.send(first, ['Enter']);
    await tmux.waitFor(first, /not an address \(no at\): fix it, or Esc to cancel/);
    await tmux.send(first, ['C-u']);
    await tmux.send(first, ['robert@hotmail.com'], true);
    await tmux.send(first, ['Enter']);
    await tmux.waitFor(first, /typed: +cy@gmial\.com/);

    // Every undecided row typed at @gmial.com at once: cy and ed; di is next.
    await tmux.send(first, ['A']);
    await tmux.waitFor(first, 'accepted 2 rows at @gmial.com');
    await tmux.waitFor(first, /typed: +di@yaho\.com/);

    await tmux.send(first, ['C-c']);
    await tmux.waitFor(first, '[exit 130]');
    const stopped = (await tmux.screen(first)).join('');
    expect(stopped).toContain('Stopped: 4 decisions kept in list.csv.review.json');
    expect(readFileSync(list, 'utf8')).toBe(`${LIST.join('\n')}\n`);
    expect(statSync(`${list}.review.json`).mode & 0o777).toBe(0o600);

    const second = await review();
    await tmux.waitFor(second, /4 of 6[\s\S]*typed: +di@yaho\.com/);
    await tmux.send(second, ['r']);
    await tmux.waitFor(second, /typed: +fay@hotmial\.com/);
    await tmux.send(second, ['a']);
    await tmux.waitFor(second, 'Every row is decided: 5 accepted, 1 rejected.');
    await tmux.send(second, ['q']);
    await tmux.waitFor(second, 'Check 5 accepted fixes now?');
    expect(sandbox.stats().addressesCharged).toBe(0);
    await tmux.send(second, ['y', 'Enter']);
    const end = (await tmux.waitFor(second, '[exit 0]')).join('\n');
    expect(end).toContain('list.csv: 5 fixes accepted, 1 rejected, written.');
    expect(end).toContain('checked 5 fixes: 5 valid; written.');
    expect(sandbox.stats().addressesCharged).toBe(5);
    expect(existsSync(`${list}.review.json`)).toBe(false);

    const rows = readFileSync(list, 'utf8').split('\n');
    expect(rows[0]).toBe(`${LIST[0]},email_fixed`);
    const cells = (at: number) => rows[at]!.split(',');
    expect([1, 2, 4, 5, 6, 7].map((at) => [cells(at)[1], cells(at)[3], cells(at)[12]])).toEqual([
      ['ann@gmial.com', 'valid', 'ann@gmail.com'],
      ['bob@hotmial.com', 'valid', 'robert@hotmail.com'],
      ['cy@gmial.com', 'valid', 'cy@gmail.com'],
      ['di@yaho.com', 'risky', ''],
      ['ed@gmial.com', 'valid', 'ed@gmail.com'],
      ['fay@hotmial.com', 'valid', 'fay@hotmail.com'],
    ]);
    // A rejected suggestion is emptied; the row a review never showed keeps its bytes (and an empty new cell).
    expect(cells(5)[11]).toBe('');
    expect(rows[3]).toBe(`${LIST[3]},`);
  });
});
