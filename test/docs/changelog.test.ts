// The CHANGELOG is kept by changesets: its newest entry is the version package.json carries, every pending
// changeset names this package with a bump a release can apply, and `changeset version` turns them into the
// next entry. A hand edit that breaks any of these fails here rather than at release time.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');
const versionOf = (dir: string): string => JSON.parse(read(dir, 'package.json')).version;
const newestEntry = (dir: string): string | undefined => read(dir, 'CHANGELOG.md').match(/^## (\S+)$/m)?.[1];

function pendingChangesets(dir: string): string[] {
  return readdirSync(join(dir, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md');
}

function bumpAfter(version: string, bumps: string[]): string {
  const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
  if (bumps.includes('major')) return major === 0 ? `0.${minor + 1}.0` : `${major + 1}.0.0`;
  if (bumps.includes('minor')) return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

describe('CHANGELOG kept by changesets', () => {
  const copies: string[] = [];
  afterAll(() => {
    for (const dir of copies) rmSync(dir, { recursive: true, force: true });
  });

  it('starts with the version package.json carries', () => {
    expect(newestEntry(ROOT)).toBe(versionOf(ROOT));
  });

  it('has pending changesets that name this package, a bump and what changed', () => {
    const name = JSON.parse(read(ROOT, 'package.json')).name as string;
    for (const file of pendingChangesets(ROOT)) {
      const text = read(join(ROOT, '.changeset'), file);
      const parts = text.match(/^---\n([\s\S]*?)\n---\n([\s\S]*)$/);
      expect(parts, `.changeset/${file} has front matter`).not.toBeNull();
      const releases = parts![1]!.split('\n').filter(Boolean);
      for (const release of releases)
        expect(release, `.changeset/${file}`).toMatch(new RegExp(`^"${name}": (patch|minor|major)$`));
      expect(parts![2]!.trim().length, `.changeset/${file} says what changed`).toBeGreaterThan(20);
    }
  });

  it('`changeset version` turns the pending changesets into the next entry and version', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mailclean-changeset-'));
    copies.push(dir);
    for (const entry of ['.changeset', 'CHANGELOG.md', 'package.json'])
      cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
    const pending = pendingChangesets(dir);
    const bumps = pending.map((file) => read(join(dir, '.changeset'), file).match(/: (patch|minor|major)$/m)![1]!);
    const cli = join(ROOT, 'node_modules', '@changesets', 'cli', 'bin.js');
    const res = spawnSync(process.execPath, [cli, 'version'], { cwd: dir, encoding: 'utf8' });
    expect(res.status, res.stderr).toBe(0);
    const expected = pending.length === 0 ? versionOf(ROOT) : bumpAfter(versionOf(ROOT), bumps);
    expect(versionOf(dir)).toBe(expected);
    expect(newestEntry(dir)).toBe(expected);
    expect(pendingChangesets(dir)).toEqual([]);
  });
});
