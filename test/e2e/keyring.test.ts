// Tokens in the OS credential store, against a real Secret Service (gnome-keyring-daemon on a private bus), and
// the file where there is none. The CLI runs as its own process: the native library reaches the bus named by the
// process's environment, which an in-process run cannot give it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyringService } from '../../src/config/tokens.js';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { TestHome } from '../helpers/cli.js';
import { PASSWORD, registered, useSandboxes } from '../helpers/sandbox.js';
import {
  SECRET_SERVICE_SKIP_NOTE,
  type SecretService,
  secretServiceInstalled,
  secretServiceRequired,
  startSecretService,
} from '../helpers/secret-service.js';
import { sourceModules, spawnCli } from '../helpers/spawn-cli.js';

if (!secretServiceInstalled) console.log(`test/e2e/keyring.test.ts: ${SECRET_SERVICE_SKIP_NOTE}`);

const KEYRING_LIBRARY = /@napi-rs\/keyring/;
const FILE_NOTE = /Tokens are kept in .*config\.json \(mode 0600\)/g;

/** The default profile's record in the profiles file. */
function record(home: TestHome): Record<string, string> {
  const file = JSON.parse(readFileSync(join(home.configDir, 'config.json'), 'utf8')) as {
    profiles: Record<string, Record<string, string>>;
  };
  return file.profiles.default ?? {};
}

function storages(stdout: string): Record<string, string | null> {
  const rows = JSON.parse(stdout) as Array<{ service: string; tokenStorage: string | null }>;
  return Object.fromEntries(rows.map((r) => [r.service, r.tokenStorage]));
}

describe.each(['spec', 'alt'] as const)('tokens in a real Secret Service (%s shape)', (shape) => {
  const sandboxes = useSandboxes();
  let home: TestHome;
  let sandbox: SandboxHandle;
  let store: SecretService;
  let email: string;
  const env = (extra: Record<string, string | undefined> = {}) => ({
    ...home.env(),
    ...store.env,
    MAILCLEAN_CONFIG_DIR: home.configDir,
    ...extra,
  });
  const held = () => store.search({ service: keyringService(home.configDir) });

  beforeEach(async (ctx) => {
    if (!secretServiceInstalled && !secretServiceRequired) ctx.skip();
    home = new TestHome();
    store = await startSecretService(join(home.dir, 'keyring'));
    sandbox = await sandboxes.start({ shape, dataDir: sandboxes.dataDir() });
    email = `ada-${shape}@example.com`;
    // Registered in this process, which has no session bus: the tokens start in the file.
    await registered(home, sandbox, { email, service: 'all' });
  });
  afterEach(async () => {
    await store?.stop();
    home?.cleanup();
  });

  it('a login moves the tokens from the file to the store; auth status says where; logout deletes them', async () => {
    const before = await spawnCli(['auth', 'status', '--json'], env());
    expect(storages(before.stdout)).toEqual({ platform: 'file', clean: 'file' });
    const fileToken = record(home).token!;
    expect(fileToken).toBeTruthy();

    const login = await spawnCli(['login', '--email', email, '--password-stdin'], env(), { stdin: PASSWORD });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).not.toMatch(FILE_NOTE);
    const kept = record(home);
    expect(kept).not.toHaveProperty('token');
    expect(kept).not.toHaveProperty('clean-token');
    expect(kept).not.toHaveProperty('cdp-token');
    expect(kept['in-keyring']?.split(',').sort()).toEqual(['cdp-token', 'clean-token', 'token']);
    const secrets = await held();
    expect(secrets.match(/^secret = /gm)).toHaveLength(3);
    expect(readFileSync(join(home.configDir, 'config.json'), 'utf8')).not.toContain(
      /^secret = (.+)$/m.exec(secrets)![1],
    );

    const status = await spawnCli(['auth', 'status', '--json'], env(), { recordModules: true });
    expect(status.code, status.stderr).toBe(0);
    expect(storages(status.stdout)).toEqual({ platform: 'keyring', clean: 'keyring' });
    expect(status.modules.some((m) => KEYRING_LIBRARY.test(m))).toBe(true);
    const text = await spawnCli(['auth', 'status'], env());
    expect(text.stdout).toContain('(from profile "default", in the OS credential store)');
    // Reading settings reads no token: the library is not even loaded.
    const list = await spawnCli(['config', 'list'], env(), { recordModules: true });
    expect(list.stdout).toContain('token=(in the OS credential store)');
    expect(list.modules.some((m) => KEYRING_LIBRARY.test(m))).toBe(false);

    const logout = await spawnCli(['logout'], env());
    expect(logout.code, logout.stderr).toBe(0);
    expect(await held()).not.toMatch(/^secret = /m);
    expect(record(home)).not.toHaveProperty('in-keyring');
    expect((await spawnCli(['auth', 'status'], env())).code).toBe(4);
  });

  it('--insecure-storage and `token-storage file` keep the file; the next login without them moves the tokens', async () => {
    const insecure = await spawnCli(['login', '--email', email, '--password-stdin', '--insecure-storage'], env(), {
      stdin: PASSWORD,
    });
    expect(insecure.code, insecure.stderr).toBe(0);
    expect(insecure.stderr).not.toMatch(FILE_NOTE);
    expect(record(home).token).toBeTruthy();
    expect(await held()).not.toMatch(/^secret = /m);

    expect((await spawnCli(['config', 'set', 'token-storage', 'file'], env())).code).toBe(0);
    await spawnCli(['login', '--email', email, '--password-stdin'], env(), { stdin: PASSWORD });
    expect(record(home).token).toBeTruthy();
    expect(await held()).not.toMatch(/^secret = /m);

    await spawnCli(['config', 'unset', 'token-storage'], env());
    const moved = await spawnCli(['login', '--email', email, '--password-stdin', '--service', 'clean'], env(), {
      stdin: PASSWORD,
    });
    expect(moved.code, moved.stderr).toBe(0);
    // The platform's tokens, not part of this sign-in, moved with the cleaning service's.
    expect(record(home)['in-keyring']?.split(',').sort()).toEqual(['cdp-token', 'clean-token', 'token']);
    expect((await held()).match(/^secret = /gm)).toHaveLength(3);
    const me = await spawnCli(['me', '--json'], env());
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({ email });
  });

  it('a token whose store cannot be reached: a warning naming it, and not signed in (exit 4)', async () => {
    await spawnCli(['login', '--email', email, '--password-stdin'], env(), { stdin: PASSWORD });
    await store.stop();
    const res = await spawnCli(['auth', 'status', '--json'], env());
    expect(res.code).toBe(4);
    expect(res.stderr).toMatch(/warning: the token of profile "default" cannot be used: .*; sign in again/);
    expect(res.stderr).not.toMatch(/^\s+at /m);
  });
});

describe('no credential store to use', () => {
  const sandboxes = useSandboxes();
  let home: TestHome;
  let sandbox: SandboxHandle;
  beforeEach(async () => {
    home = new TestHome();
    sandbox = await sandboxes.start({ dataDir: sandboxes.dataDir() });
    await registered(home, sandbox, { email: 'bo@example.com', service: 'all' });
  });
  afterEach(() => home.cleanup());
  // A bus address where nothing listens: the library is asked, and fails.
  const deadBus = () => ({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(home.dir, 'no-bus')}` });

  it('a session bus with no Secret Service: the file, with one note at login', async () => {
    const res = await spawnCli(['login', '--email', 'bo@example.com', '--password-stdin'], home.env(deadBus()), {
      stdin: PASSWORD,
      recordModules: true,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr.match(FILE_NOTE)).toHaveLength(1);
    expect(res.modules.some((m) => KEYRING_LIBRARY.test(m))).toBe(true);
    expect(record(home)).toMatchObject({ token: expect.any(String), 'clean-token': expect.any(String) });
    const status = await spawnCli(['auth', 'status', '--json'], home.env(deadBus()));
    expect(storages(status.stdout)).toEqual({ platform: 'file', clean: 'file' });
  });

  it('in CI the file, silently; with no session bus the file, said once with how to use a store; the library never loaded', async () => {
    for (const [extra, notes] of [
      [{ CI: 'true', ...deadBus() }, 0],
      [{}, 1],
    ] as const) {
      const res = await spawnCli(['login', '--email', 'bo@example.com', '--password-stdin'], home.env(extra), {
        stdin: PASSWORD,
        recordModules: true,
      });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr.match(FILE_NOTE) ?? []).toHaveLength(notes);
      if (notes) {
        expect(res.stderr).toMatch(/no session bus answers here .*: ssh, a server, a container\)/);
        expect(res.stderr).toMatch(/dbus-run-session -- sh -c 'gnome-keyring-daemon --unlock/);
        expect(res.stderr).toMatch(
          /`mailclean config set token-storage file` keeps them in the file without this note\./,
        );
      }
      expect(res.modules.some((m) => KEYRING_LIBRARY.test(m))).toBe(false);
      expect(record(home).token).toBeTruthy();
    }
  });
});

describe('start-up', () => {
  let home: TestHome;
  beforeEach(() => {
    home = new TestHome();
  });
  afterEach(() => home.cleanup());

  it('--help and --version load neither the credential store library nor any command module', async () => {
    for (const args of [['--help'], ['--version'], ['login', '--help']]) {
      const res = await spawnCli(args, home.env({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' }), {
        recordModules: true,
      });
      expect(res.code, res.stderr).toBe(0);
      expect(res.modules.length).toBeGreaterThan(0);
      expect(res.modules.filter((m) => KEYRING_LIBRARY.test(m))).toEqual([]);
      const sources = sourceModules(res.modules);
      // --version is answered by bin/mailclean.js alone.
      if (args[0] !== '--version') expect(sources).toContain('src/commands/index.ts');
      const commands = sources.filter((m) => /^src\/commands\/(?!index\.ts$)/.test(m));
      if (args[0] !== 'login') expect(commands).toEqual([]);
      else expect(commands).toContain('src/commands/flags/login.ts');
    }
  });
});
