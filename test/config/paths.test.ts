// Where profiles and data live on each platform. Linux keeps XDG (and so finds what earlier versions wrote); macOS
// and Windows use their own conventions, except where only an earlier version's XDG-style directory exists.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configDir, dataDir } from '../../src/config/paths.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});
function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mailclean-home-'));
  homes.push(dir);
  return dir;
}

describe('configDir and dataDir', () => {
  it('Linux: XDG, defaulting to ~/.config and ~/.local/state, as before', () => {
    const linux = { platform: 'linux' as const, home: '/home/ada' };
    expect(configDir({}, linux)).toBe('/home/ada/.config/mailclean');
    expect(dataDir({}, linux)).toBe('/home/ada/.local/state/mailclean');
    const xdg = { XDG_CONFIG_HOME: '/xdg/config', XDG_STATE_HOME: '/xdg/state' };
    expect(configDir(xdg, linux)).toBe('/xdg/config/mailclean');
    expect(dataDir(xdg, linux)).toBe('/xdg/state/mailclean');
  });

  it('macOS: Application Support, or XDG when the user set it', () => {
    const mac = { platform: 'darwin' as const, home: home() };
    expect(configDir({}, mac)).toBe(join(mac.home, 'Library', 'Application Support', 'mailclean'));
    expect(dataDir({}, mac)).toBe(join(mac.home, 'Library', 'Application Support', 'mailclean', 'state'));
    expect(configDir({ XDG_CONFIG_HOME: '/xdg' }, mac)).toBe('/xdg/mailclean');
    expect(dataDir({ XDG_STATE_HOME: '/xdg-state' }, mac)).toBe('/xdg-state/mailclean');
  });

  it("macOS: an earlier version's ~/.config and ~/.local/state are found while the new places do not exist", () => {
    const mac = { platform: 'darwin' as const, home: home() };
    mkdirSync(join(mac.home, '.config', 'mailclean'), { recursive: true });
    mkdirSync(join(mac.home, '.local', 'state', 'mailclean'), { recursive: true });
    expect(configDir({}, mac)).toBe(join(mac.home, '.config', 'mailclean'));
    expect(dataDir({}, mac)).toBe(join(mac.home, '.local', 'state', 'mailclean'));
    mkdirSync(join(mac.home, 'Library', 'Application Support', 'mailclean', 'state'), { recursive: true });
    expect(configDir({}, mac)).toBe(join(mac.home, 'Library', 'Application Support', 'mailclean'));
    expect(dataDir({}, mac)).toBe(join(mac.home, 'Library', 'Application Support', 'mailclean', 'state'));
  });

  it('Windows: %APPDATA% for profiles (they roam), %LOCALAPPDATA% for data (it stays on the machine)', () => {
    const windows = { platform: 'win32' as const, home: 'C:\\Users\\Ada' };
    const env = { APPDATA: 'C:\\Users\\Ada\\AppData\\Roaming', LOCALAPPDATA: 'D:\\Local' };
    expect(configDir(env, windows)).toBe('C:\\Users\\Ada\\AppData\\Roaming\\mailclean');
    expect(dataDir(env, windows)).toBe('D:\\Local\\mailclean');
    expect(configDir({}, windows)).toBe('C:\\Users\\Ada\\AppData\\Roaming\\mailclean');
    expect(dataDir({}, windows)).toBe('C:\\Users\\Ada\\AppData\\Local\\mailclean');
  });

  it('MAILCLEAN_CONFIG_DIR and MAILCLEAN_DATA_DIR win everywhere', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const env = { MAILCLEAN_CONFIG_DIR: '/c', MAILCLEAN_DATA_DIR: '/d', XDG_CONFIG_HOME: '/x', APPDATA: 'A' };
      expect(configDir(env, { platform, home: '/h' })).toBe('/c');
      expect(dataDir(env, { platform, home: '/h' })).toBe('/d');
    }
  });
});
