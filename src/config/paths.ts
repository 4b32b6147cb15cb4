// Where profiles and data live, by each platform's convention. env-paths (installed with conf) is not used: it reads
// process.env and the real platform, where mailclean's environment is given to each run (tests run many homes in
// one process), and it puts macOS settings in ~/Library/Preferences, which Apple keeps for property lists.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

type Env = Record<string, string | undefined>;

export interface Machine {
  platform: NodeJS.Platform;
  home: string;
}

const THIS_MACHINE: Machine = { platform: process.platform, home: homedir() };

/**
 * Where profiles live: MAILCLEAN_CONFIG_DIR; else $XDG_CONFIG_HOME/mailclean (on any platform, when set); else
 * ~/.config/mailclean on Linux, ~/Library/Application Support/mailclean on macOS, %APPDATA%\mailclean on Windows.
 */
export function configDir(env: Env, machine: Machine = THIS_MACHINE): string {
  if (env.MAILCLEAN_CONFIG_DIR) return env.MAILCLEAN_CONFIG_DIR;
  return chosen(env.XDG_CONFIG_HOME, ['.config'], machine, (path) =>
    machine.platform === 'win32'
      ? path.join(env.APPDATA || path.join(machine.home, 'AppData', 'Roaming'), 'mailclean')
      : path.join(machine.home, 'Library', 'Application Support', 'mailclean'),
  );
}

/**
 * Journals, limiter state, the verdict cache, sandbox data: MAILCLEAN_DATA_DIR; else $XDG_STATE_HOME/mailclean (on
 * any platform, when set); else ~/.local/state/mailclean on Linux, ~/Library/Application Support/mailclean/state on
 * macOS, %LOCALAPPDATA%\mailclean on Windows (large and of this machine: not in the roaming profile).
 */
export function dataDir(env: Env, machine: Machine = THIS_MACHINE): string {
  if (env.MAILCLEAN_DATA_DIR) return env.MAILCLEAN_DATA_DIR;
  return chosen(env.XDG_STATE_HOME, ['.local', 'state'], machine, (path) =>
    machine.platform === 'win32'
      ? path.join(env.LOCALAPPDATA || path.join(machine.home, 'AppData', 'Local'), 'mailclean')
      : path.join(machine.home, 'Library', 'Application Support', 'mailclean', 'state'),
  );
}

/**
 * The XDG directory when set or on Linux (and the other Unixes); on macOS and Windows, the platform's own, unless
 * only the XDG-style directory exists: earlier versions put everything there on every platform, and what they left
 * (tokens, paid answers) is found where it is.
 */
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
