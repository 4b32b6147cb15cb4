// Prompts on a terminal: the answers are typed only once each question shows, as a person would.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestHome } from './helpers/cli.js';
import { interactive } from './helpers/terminal.js';
import { Signals } from '../src/io/signals.js';

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

  it('SIGTERM at a prompt cancels it: exit 143', async () => {
    const signals = new Signals();
    setTimeout(() => signals.deliver('SIGTERM'), 300);
    const res = await interactive(home, ['register'], [], {}, signals);
    expect(res.stderr).toMatch(/Name:/);
    expect(res.code).toBe(143);
    expect(res.stderr).toMatch(/Interrupted\.\n$/);
  });
});
