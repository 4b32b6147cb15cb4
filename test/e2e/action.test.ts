// The composite action (action.yml) run as a runner runs it (test/helpers/action-runner.ts): installed from a
// release served on loopback (the single executable, on this Linux x64 machine) or from a tarball packed in the
// run (`package:`, with the runner's own Node), a clean whose --fail-when trips, outputs, annotations, the job
// summary, and the cache of the data directory across jobs and runs, never for a fork's pull request.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';
import { type ActionRun, CacheStore, type Job, runAction } from '../helpers/action-runner.js';
import { closedUdpPort } from '../helpers/dns-server.js';
import type { TestServer } from '../helpers/http-server.js';
import { type LocalRegistry, startRegistry } from '../helpers/registry.js';
import { releaseFiles, serveRelease, TARBALL } from '../helpers/release.js';

const ROOT = join(import.meta.dirname, '..', '..');
const linuxX64 = process.platform === 'linux' && process.arch === 'x64';

// Each test runs whole jobs (a download, an install, a clean): minutes on a loaded machine.
describe.runIf(linuxX64)('the GitHub Action', { timeout: 180_000 }, () => {
  let dir: string;
  let server: TestServer & { requests: string[] };
  let caches: CacheStore;
  let dns: string;
  let registry: LocalRegistry;
  let jobs = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mailclean-action-'));
    server = await serveRelease(releaseFiles(join(dir, 'release'), { executable: true }));
    caches = new CacheStore();
    dns = `127.0.0.1:${await closedUdpPort()}`;
    // The tarball's one optional dependency (the credential store's binding) comes from a registry on loopback.
    const cache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
    registry = await startRegistry(join(ROOT, 'package-lock.json'), cache);
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    await registry?.close();
    caches?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A job of run `runId`: a workspace holding the fixture list, the runner's Node first on PATH. */
  function job(runId: string, name = 'clean', extra: Partial<Job['github']> = {}, index?: number): Job {
    const jobDir = join(dir, `job-${++jobs}`);
    const workspace = join(jobDir, 'workspace');
    const github = {
      workflow: 'clean list',
      run_id: runId,
      run_attempt: '1',
      job: name,
      workspace,
      action_ref: `v${VERSION}`,
      ...extra,
    };
    const job: Job = {
      dir: jobDir,
      github,
      caches,
      env: {
        PATH: `${dirname(process.execPath)}${delimiter}/usr/bin:/bin`,
        HOME: jobDir,
        npm_config_registry: registry.url,
      },
    };
    if (index !== undefined) job.strategy = { 'job-index': index };
    // What an earlier step of the job (or the restored cache) left in the data directory.
    mkdirSync(join(workspace, '.mailclean'), { recursive: true });
    writeFileSync(join(workspace, '.mailclean', `from-${runId}-${name}-${index ?? 0}`), '');
    copyFileSync(join(ROOT, 'fixtures', 'clean', 'mailchimp.csv'), join(workspace, 'list.csv'));
    return job;
  }

  function clean(j: Job, inputs: Record<string, string> = {}): Promise<ActionRun> {
    const args = `clean list.csv -o cleaned.csv --local --dns-server ${dns} --fail-when 'invalid>0'`;
    return runAction(ROOT, { args, 'release-url': server.url, ...inputs }, j);
  }

  it('installs the release executable, cleans, and reports through outputs, annotations and the job summary', async () => {
    const j = job('100');
    const run = await clean(j);
    expect(run.steps.map((s) => s.outcome)).toEqual(['success', 'success', 'failure', 'success']);
    expect(server.requests).toContain(`/v${VERSION}/mailclean-linux-x64`);
    expect(run.outputs['exit-code']).toBe('5');
    expect(run.outputs).toMatchObject({
      rows: '15',
      valid: '0',
      invalid: '1',
      unknown: '14',
      unchecked: '0',
      spent: '0',
    });
    expect(run.outputs.output).toBe('cleaned.csv');
    expect(run.outputs['summary-json']).toMatch(/mailclean-summary-\d+\.json$/);
    expect(run.outputs['failed-when']).toMatch(/^invalid>0 \(/);
    expect(run.annotations).toContainEqual({ level: 'error', text: expect.stringMatching(/^invalid>0 \(/) });
    expect(run.annotations).toContainEqual({ level: 'warning', text: expect.stringMatching(/DNS is unreachable/) });
    expect(readFileSync(join(j.github.workspace, 'cleaned.csv'), 'utf8')).toMatch(/email_status/);
    expect(readFileSync(run.files.summary, 'utf8')).toMatch(/invalid/);
    // The caller's Node and PATH are left as they were: nothing added to GITHUB_PATH or GITHUB_ENV.
    expect(readFileSync(run.files.path, 'utf8') + readFileSync(run.files.env, 'utf8')).toBe('');
    expect(run.outputs.bin!.startsWith(join(j.dir, 'runner-temp'))).toBe(true);
    expect(run.savedKey).toMatch(/^mailclean-clean list-100-1-clean-0-[0-9a-f]+$/);
  });

  it('gives each job of a run its own cache key, and a later run finds what they saved', async () => {
    const [a, b, c] = await Promise.all([
      clean(job('200', 'clean', {}, 0)),
      clean(job('200', 'clean', {}, 1)),
      clean(job('200', 'other')),
    ]);
    const keys = [a!.savedKey, b!.savedKey, c!.savedKey];
    expect(new Set(keys).size).toBe(3);
    expect(caches.refused).toEqual([]);
    const laterJob = job('201');
    const later = await clean(laterJob);
    expect(keys).toContain(later.restoredKey);
    const restoredFrom = keys.indexOf(later.restoredKey);
    const marker = ['from-200-clean-0', 'from-200-clean-1', 'from-200-other-0'][restoredFrom]!;
    expect(existsSync(join(laterJob.github.workspace, '.mailclean', marker))).toBe(true);
    expect(later.outputs['exit-code']).toBe('5');
  });

  it("installs a tarball packed earlier in the run with the runner's Node; a clean that passes has no error", async () => {
    const j = job('300');
    const tarball = `${server.url}/v${VERSION}/${TARBALL}`;
    const run = await clean(j, {
      args: `clean list.csv -o out.csv --only valid,unknown --rejects bad.csv --local --dns-server ${dns}`,
      package: tarball,
    });
    expect(run.steps.find((s) => s.id === 'install')!.stderr).toContain(`Installed ${VERSION}`);
    expect(run.outputs.bin).toMatch(/\/bin\/mailclean$/);
    expect(run.outputs['exit-code']).toBe('0');
    expect(run.outputs).toMatchObject({ output: 'out.csv', rejects: 'bad.csv', 'failed-when': '' });
    expect(run.annotations.filter((a) => a.level === 'error')).toEqual([]);
  });

  it('neither restores nor saves the data directory for a pull request from a fork', async () => {
    const saved = caches.entries.length;
    const fork = { event_name: 'pull_request', event: { pull_request: { head: { repo: { fork: true } } } } };
    const run = await clean(job('400', 'clean', fork));
    expect(run.restoredKey).toBeUndefined();
    expect(run.steps.filter((s) => s.outcome === 'skipped')).toHaveLength(2);
    expect(caches.entries.length).toBe(saved);
    expect(run.outputs['exit-code']).toBe('5');
  });

  it('refuses to guess a version when used at a branch', async () => {
    const run = await clean(job('500', 'clean', { action_ref: 'main' }));
    expect(run.steps[0]!.outcome).toBe('failure');
    expect(run.annotations).toContainEqual({
      level: 'error',
      text: expect.stringMatching(/use the action at a release tag/),
    });
    expect(run.steps.slice(1).every((s) => s.outcome === 'skipped')).toBe(true);
  });
});
