// The release workflow (.github/workflows/release.yml) cannot run here; what can be checked is that it is made
// from tags, builds with the project's own commands, and attaches exactly what the README and the action fetch.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { VERSION } from '../../src/version.js';
import { EXECUTABLE } from '../helpers/release.js';

const ROOT = join(import.meta.dirname, '..', '..');
const workflow = parse(readFileSync(join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8')) as {
  on: { push: { tags: string[] } };
  permissions: Record<string, string>;
  jobs: Record<string, { 'runs-on': string; steps: { run?: string; uses?: string; with?: Record<string, unknown> }[] }>;
};
const job = Object.values(workflow.jobs)[0]!;
const runs = job.steps.map((s) => s.run ?? '').join('\n');
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;

describe('the release workflow', () => {
  it('runs for version tags, on Linux x64, with Node 24, allowed to write the release', () => {
    expect(workflow.on.push.tags).toEqual(['v*']);
    expect(workflow.permissions.contents).toBe('write');
    expect(job['runs-on']).toBe('ubuntu-latest');
    expect(job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with?.['node-version']).toBe(24);
  });

  it("builds with the package's own scripts", () => {
    for (const [, script] of runs.matchAll(/npm run (\S+)/g)) expect(Object.keys(scripts)).toContain(script);
    expect(runs).toMatch(/npm ci/);
    expect(runs).toMatch(/npm run release/);
    expect(runs).toMatch(/npm run executable/);
  });

  it('attaches the tarball, the executable and their checksums, the names the README downloads', () => {
    const attach = job.steps.find((s) => /gh release create/.test(s.run ?? ''))!.run!;
    expect(attach.split(/\s+/).filter((word) => word.startsWith('release/'))).toEqual([
      'release/mailclean-*.tgz',
      `release/${EXECUTABLE}`,
      'release/SHA256SUMS',
    ]);
    expect(runs).toContain(`sha256sum mailclean-*.tgz ${EXECUTABLE} > SHA256SUMS`);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`/releases/download/v${VERSION}/${EXECUTABLE}`);
    expect(readme).toContain(`/releases/download/v${VERSION}/SHA256SUMS`);
  });
});
