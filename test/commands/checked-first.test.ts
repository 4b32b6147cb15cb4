// Commands that ask questions on a terminal check every flag first: a bad URL (flag or environment), email, country
// code or --service is refused before the first question, so a typo never costs a round of answers. Each run here is on
// a pretend terminal where any question beyond the script is counted and cancelled.
import { describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { useHome } from '../helpers/cli.js';
import { registered, urlsOf, useSandboxes } from '../helpers/sandbox.js';
import { interactive } from '../helpers/terminal.js';

const home = useHome();

/** Runs on the terminal expecting no question at all: exit 2 and this one error line. */
async function refusedUnasked(argv: string[], error: RegExp, env: Record<string, string> = {}): Promise<void> {
  const res = await interactive(home(), argv, [], env, { cancelUnscripted: true });
  expect(res.unscripted, `a question was asked before the error:\n${res.stderr}`).toBe(0);
  expect(res.code, res.stderr).toBe(2);
  expect(res.stderr).toMatch(error);
  expect(res.stderr).not.toMatch(/Name:|Email:|Password:/);
  expect(res.stderr).not.toMatch(/^\s+at /m);
}

describe('register checks its flags before the first question', () => {
  it('a bad --api-url or --clean-url, or MAILCLEAN_API_URL', async () => {
    await refusedUnasked(['--api-url', 'not a url', 'register'], /^error: --api-url: "not a url" is not a valid URL$/m);
    await refusedUnasked(
      ['--clean-url', 'ftp://clean.example.com', 'register', '--service', 'clean'],
      /^error: --clean-url: "ftp:\/\/clean\.example\.com" is not an http or https URL$/m,
    );
    await refusedUnasked(['register'], /^error: MAILCLEAN_API_URL: "example\.com" is not a valid URL$/m, {
      MAILCLEAN_API_URL: 'example.com',
    });
  });

  it('a bad --email, --country-code or --service', async () => {
    await refusedUnasked(
      ['register', '--email', 'ada.example.com'],
      /^error: --email: "ada\.example\.com" is not an email address$/m,
    );
    await refusedUnasked(
      ['register', '--country-code', 'United Kingdom'],
      /^error: --country-code: "United Kingdom" is not a two-letter country code/m,
    );
    await refusedUnasked(
      ['register', '--service', 'both'],
      /error: option '--service <service>' argument 'both' is invalid/,
    );
  });

  it('one service chosen and no URL for it (the profile holds a token, so no sandbox)', async () => {
    await refusedUnasked(
      ['register', '--service', 'platform'],
      /^error: no api-url is configured for profile "default"/m,
      { MAILCLEAN_CLEAN_TOKEN: 'a-token' },
    );
  });

  it('good flags: only what is missing is asked, and the country code goes out upper-cased', async () => {
    const res = await interactive(
      home(),
      ['register', '--email', 'ada@example.com', '--country-code', 'gb'],
      [
        [/Name:/, 'Ada'],
        [/Password:/, 'a secret phrase'],
        [/Password \(again\):/, 'a secret phrase'],
      ],
      {},
      { cancelUnscripted: true },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.unscripted).toBe(0);
    const me = await home().run(['me', '--json', 'country_code']);
    expect(JSON.parse(me.stdout)).toEqual({ country_code: 'GB' });
  });
});

describe('login, oem-register and me update check their flags first too', () => {
  const sandboxes = useSandboxes();

  it('login: a bad URL or --email', async () => {
    await refusedUnasked(['--api-url', 'http//api', 'login'], /^error: --api-url: "http\/\/api" is not a valid URL$/m);
    await refusedUnasked(['login', '--email', 'nobody'], /^error: --email: "nobody" is not an email address$/m);
    await refusedUnasked(['login', '--service', 'clean'], /^error: no clean-url is configured/m, {
      MAILCLEAN_TOKEN: 'a-token',
    });
  });

  it('oem-register: a bad URL or --email', async () => {
    const env = { MAILCLEAN_INTERNAL_TOKEN: 'internal' };
    await refusedUnasked(
      ['--api-url', 'not a url', 'oem-register'],
      /^error: --api-url: "not a url" is not a valid URL$/m,
      env,
    );
    await refusedUnasked(
      ['oem-register', '--email', 'cy.example.com'],
      /^error: --email: "cy\.example\.com" is not an email address$/m,
      env,
    );
  });

  it('me update: a bad --country-code is refused before anything is sent; a prompted one is asked again', async () => {
    const sandbox: SandboxHandle = await sandboxes.start();
    await registered(home(), sandbox, { name: 'Ada', service: 'all' });
    const before = await home().run(['me', '--json', 'country_code']);
    await refusedUnasked(
      [...urlsOf(sandbox), 'me', 'update', '--country-code', 'GBR', '--phone', '1'],
      /^error: --country-code: "GBR" is not a two-letter country code/m,
    );
    expect((await home().run(['me', '--json', 'country_code'])).stdout).toBe(before.stdout);

    const res = await interactive(
      home(),
      ['me', 'update', '--json', 'country_code'],
      [
        [/First name:/, 'Ada'],
        [/Last name:/, 'Lovelace'],
        [/Phone:/, '+44 20 7946 0000'],
        [/Country code:/, 'United Kingdom'],
        [/Country code:/, 'gb'],
      ],
      {},
      { cancelUnscripted: true },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('"United Kingdom" is not a two-letter country code');
    expect(JSON.parse(res.stdout)).toEqual({ country_code: 'GB' });
  });
});
