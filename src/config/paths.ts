import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

/** Where profiles live: MAILCLEAN_CONFIG_DIR, else $XDG_CONFIG_HOME/mailclean, else ~/.config/mailclean. */
export function configDir(env: Env): string {
  if (env.MAILCLEAN_CONFIG_DIR) return env.MAILCLEAN_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'mailclean');
}

/** Journals, limiter state, sandbox data: MAILCLEAN_DATA_DIR, else $XDG_STATE_HOME/mailclean, else ~/.local/state/mailclean. */
export function dataDir(env: Env): string {
  if (env.MAILCLEAN_DATA_DIR) return env.MAILCLEAN_DATA_DIR;
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'mailclean');
}
