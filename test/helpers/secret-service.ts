// A real Secret Service for the tests of the OS credential store: gnome-keyring-daemon on a private session bus
// (dbus-run-session), its keyring created and unlocked in a directory of the test's own. Where the packages are
// not installed those tests are skipped and say why; .ci/run installs them and sets MAILCLEAN_REQUIRE_KEYRING=1,
// which turns the skip into a failure.
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const PROGRAMS = ['dbus-run-session', 'dbus-send', 'gnome-keyring-daemon', 'secret-tool'];
export const secretServiceInstalled =
  process.platform === 'linux' && PROGRAMS.every((p) => spawnSync('sh', ['-c', `command -v ${p}`]).status === 0);
export const secretServiceRequired = process.env.MAILCLEAN_REQUIRE_KEYRING === '1';
export const SECRET_SERVICE_SKIP_NOTE =
  'skipped: no Secret Service to test against (apt-get install -y dbus dbus-daemon gnome-keyring libsecret-tools; .ci/run installs them)';

export interface SecretService {
  /** What a process needs to reach it: the private bus, and a home of its own. */
  env: Record<string, string>;
  /** `secret-tool search --all` of these attributes on this service: what the store holds. */
  search(attributes: Record<string, string>): Promise<string>;
  stop(): Promise<void>;
}

const run = promisify(execFile);

/** Starts gnome-keyring-daemon on a new bus; `dir` holds its keyring and runtime files. */
export async function startSecretService(dir: string): Promise<SecretService> {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    XDG_DATA_HOME: join(dir, 'data'),
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_RUNTIME_DIR: join(dir, 'run'),
  };
  mkdirSync(env.XDG_RUNTIME_DIR, { recursive: true, mode: 0o700 });
  // The password on stdin creates the login keyring and unlocks it; the bus's address comes first on stdout.
  const child = spawn(
    'dbus-run-session',
    [
      '--',
      'sh',
      '-c',
      'echo "$DBUS_SESSION_BUS_ADDRESS"; printf test | exec gnome-keyring-daemon --foreground --unlock --components=secrets',
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const stop = () => stopGroup(child);
  try {
    const bus = await firstLine(child);
    const withBus = { ...env, DBUS_SESSION_BUS_ADDRESS: bus };
    await untilOwned(withBus);
    return {
      env: withBus,
      search: async (attributes) => {
        const args = ['search', '--all', ...Object.entries(attributes).flat()];
        const { stdout, stderr } = await run('secret-tool', args, { env: withBus }).catch((e) => e);
        return `${stdout ?? ''}${stderr ?? ''}`;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!.trim());
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`dbus-run-session exited ${code}: ${err.slice(-500)}`)));
  });
}

/** Until the daemon holds the Secret Service's name on the bus (asking never starts one: no activation). */
async function untilOwned(env: Record<string, string>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { stdout } = await run(
      'dbus-send',
      [
        '--session',
        '--print-reply',
        '--dest=org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.NameHasOwner',
        'string:org.freedesktop.secrets',
      ],
      { env },
    );
    if (stdout.includes('boolean true')) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('gnome-keyring-daemon did not take the Secret Service name within 5 s');
}

/** The bus, the daemon and the shell between them are one process group, stopped together. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  await exited;
}
