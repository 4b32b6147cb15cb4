// The CI recipes users copy: README's workflow and the composite action must keep the data directory when the
// job fails (restore and save apart, save always), run on a supported Node, resume, and install mailclean in a
// way that works today (a pinned release, never the unpublished npm name).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '..', '..');

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | number>;
  env?: Record<string, string>;
}

/** The YAML block of a README section. */
function yamlBlock(heading: string, index = 0): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(`## ${heading}`));
  const blocks = [...section.slice(0, section.indexOf('\n## ', 3)).matchAll(/```yaml\n([\s\S]*?)```/g)].map(
    (m) => m[1]!,
  );
  return blocks[index]!;
}

/** The checks both recipes must pass. */
function keepsItsData(steps: Step[], runs: (step: Step) => boolean): void {
  const at = (pred: (s: Step) => boolean) => steps.findIndex(pred);
  expect(steps.some((s) => s.uses?.startsWith('actions/cache@'))).toBe(false); // saves only on success
  const restore = at((s) => s.uses?.startsWith('actions/cache/restore@') ?? false);
  const run = at(runs);
  const save = at((s) => s.uses?.startsWith('actions/cache/save@') ?? false);
  expect(restore).toBeGreaterThanOrEqual(0);
  expect(run).toBeGreaterThan(restore);
  expect(save).toBeGreaterThan(run);
  expect(steps[save]!.if).toMatch(/^always\(\)( && |$)/);
  expect(steps[save]!.with!.path).toBe(steps[restore]!.with!.path);
  expect(steps[save]!.with!.key).toBe(steps[restore]!.with!.key);
  for (const s of steps) expect(s.run ?? '').not.toMatch(/npm (install|i) (-g )?mailclean\b|npx mailclean/);
}

describe("README's GitHub Actions workflow", () => {
  const workflow = parse(yamlBlock('Cleaning in CI')) as {
    jobs: Record<string, { steps: Step[]; env: Record<string, string> }>;
  };
  const job = Object.values(workflow.jobs)[0]!;

  it('restores the data directory, runs with --resume, and saves it even when the run fails', () => {
    keepsItsData(job.steps, (s) => /^mailclean clean .*--resume/.test(s.run ?? ''));
    const save = job.steps.find((s) => s.uses?.startsWith('actions/cache/save@'))!;
    expect(String(save.with!.key)).toBe('mailclean-${{ github.job }}-${{ github.run_id }}-${{ github.run_attempt }}');
    const restore = job.steps.find((s) => s.uses?.startsWith('actions/cache/restore@'))!;
    expect(restore.with!['restore-keys']).toBe('mailclean-${{ github.job }}-');
    const node = job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
    expect(['22', '24']).toContain(String(node?.with?.['node-version']));
    expect(job.env.MAILCLEAN_DATA_DIR).toBe('${{ github.workspace }}/.mailclean');
    expect(job.steps.find((s) => s.uses?.startsWith('actions/cache/restore@'))!.with!.path).toBe('.mailclean');
  });

  it('installs a pinned release, and uploads the results whatever happened', () => {
    const install = job.steps.find((s) => (s.run ?? '').startsWith('npm install -g '))!;
    expect(install.run).toMatch(
      /^npm install -g https:\/\/github\.com\/mailclean\/mailclean\/releases\/download\/v[\d.]+\//,
    );
    const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.if).toBe('always()');
  });

  it("the action's short form names inputs the action has", () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
    const short = parse(yamlBlock('Cleaning in CI', 1)) as Step[];
    const uses = short.find((s) => s.uses?.startsWith('mailclean/mailclean@'));
    expect(uses!.uses).toMatch(/^mailclean\/mailclean@v\d+\.\d+\.\d+$/); // a release, never @main
    for (const input of Object.keys(uses!.with!)) expect(Object.keys(action.inputs)).toContain(input);
  });
});

describe('the composite action (action.yml)', () => {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
    runs: { using: string; steps: Step[] };
    inputs: Record<string, { default?: string }>;
  };

  it("is composite: install, restore, run, an always() save; the caller's Node left alone", () => {
    expect(action.runs.using).toBe('composite');
    keepsItsData(action.runs.steps, (s) => (s.run ?? '').includes('action/run.sh'));
    expect(action.runs.steps.some((s) => s.uses?.startsWith('actions/setup-node@'))).toBe(false);
    for (const s of action.runs.steps) expect(s.run ?? '').not.toMatch(/npm ci|npm install -g \./);
  });

  it('passes the arguments through the environment, not pasted into the script', () => {
    const run = action.runs.steps.find((s) => (s.run ?? '').includes('action/run.sh'))!;
    expect(run.run).not.toContain('${{');
    expect(run.env!.MAILCLEAN_ARGS).toBe('${{ inputs.args }}');
  });
});
