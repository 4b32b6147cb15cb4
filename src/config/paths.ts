// Where profiles and data live, by each platform's convention. Not env-paths: it reads process.env, while each
// command is given its own environment.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

type Env = Record<string, string | undefined>;

export interface Machine {
  platform: NodeJS.Platform;
  home: string;
}

const THIS_MACHINE: Machine = { platform: process.platform, home: homedir() };

/** MAILCLEAN_CONFIG_DIR, else $XDG_CONFIG_HOME/mailclean, else the platform's own (docs: `help environment`). */
export function configDir(env: Env, machine: Machine = THIS_MACHINE): string {
  if (env.MAILCLEAN_CONFIG_DIR) return env.MAILCLEAN_CONFIG_DIR;
  return chosen(env.XDG_CONFIG_HOME, ['.config'], machine, (path) =>
    machine.platform === 'win32'
      ? path.join(env.APPDATA || path.join(machine.home, 'AppData', 'Roaming'), 'mailclean')
      : path.join(machine.home, 'Library', 'Application Support', 'mailclean'),
  );
}

/** MAILCLEAN_DATA_DIR, else $XDG_STATE_HOME/mailclean, else the platform's own (on Windows, not roaming). */
export function dataDir(env: Env, machine: Machine = THIS_MACHINE): string {
  if (env.MAILCLEAN_DATA_DIR) return env.MAILCLEAN_DATA_DIR;
  return chosen(env.XDG_STATE_HOME, ['.local', 'state'], machine, (path) =>
    machine.platform === 'win32'
      ? path.join(env.LOCALAPPDATA || path.join(machine.home, 'AppData', 'Local'), 'mailclean')
      : path.join(machine.home, 'Library', 'Application Support', 'mailclean', 'state'),
  );
}

/** The XDG directory when set or on Linux; else the platform's own, unless only the XDG one exists (older versions). */
function chosen(
  xdgHome: string | undefined,
  xdgDefault: string[],
  machine: Machine,
  native: (path: typeof posix) => string,
): string {
  const path = machine.platform === 'win32' ? win32 : posix;
  const xdg = path.join(xdgHome || path.join(machine.home, ...xdgDefault), 'mailclean');
  if (xdgHome || (machine.platform !== 'darwin' && machine.platform !== 'win32')) return xdg;
  const own = native(path);
  return !existsSync(own) && existsSync(xdg) ? xdg : own;
}
