// The Dockerfile, built and run where a container engine answers (`docker info`). This machine and CI have only
// the docker client, so the test says it is skipped; MAILCLEAN_REQUIRE_DOCKER=1 turns the skip into a failure.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';

const ROOT = join(import.meta.dirname, '..', '..');
const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8', timeout: 20_000 });
const engine = info.status === 0;
const required = process.env.MAILCLEAN_REQUIRE_DOCKER === '1';
if (!engine) {
  const why = (info.error?.message ?? info.stderr ?? '').trim().split('\n')[0];
  console.log(`test/e2e/docker.test.ts: skipped: no container engine answers \`docker info\` (${why})`);
}

describe('the Dockerfile', () => {
  it.runIf(required && !engine)('has a container engine to build with (MAILCLEAN_REQUIRE_DOCKER=1)', () => {
    expect(engine).toBe(true);
  });

  it.runIf(engine)(
    'builds an image that runs mailclean as a user, with its data in /data',
    { timeout: 600_000 },
    () => {
      const tag = `mailclean-test:${process.pid}`;
      const build = spawnSync('docker', ['build', '-t', tag, ROOT], { encoding: 'utf8', timeout: 590_000 });
      expect(build.status, build.stderr).toBe(0);
      try {
        const version = spawnSync('docker', ['run', '--rm', tag, '--version'], { encoding: 'utf8' });
        expect(version.stdout).toBe(`${VERSION}\n`);
        const user = spawnSync('docker', ['run', '--rm', '--entrypoint', 'id', tag, '-un'], { encoding: 'utf8' });
        expect(user.stdout.trim()).toBe('node');
        const fixtures = join(ROOT, 'fixtures', 'clean');
        const clean = spawnSync(
          'docker',
          ['run', '--rm', '--network', 'none', '-v', `${fixtures}:/work:ro`, tag, 'clean', 'mailchimp.csv', '--local'],
          { encoding: 'utf8' },
        );
        expect(clean.status, clean.stderr).toBe(0);
        expect(clean.stdout.split('\n')[0]).toMatch(/email_status/);
      } finally {
        spawnSync('docker', ['rmi', '-f', tag]);
      }
    },
  );
});
