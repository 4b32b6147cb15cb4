// The CI recipes users copy: README's workflow and the composite action must keep the data directory when the
// job fails (restore and save apart, save always), run on a supported Node, resume, and install mailclean in a
// way that works today (never from the unpublished npm name).
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
  expect(steps[save]!.if).toBe('always()');
  expect(steps[save]!.with!.path).toBe(steps[restore]!.with!.path);
  expect(steps[save]!.with!.key).toBe(steps[restore]!.with!.key);
  expect(String(steps[save]!.with!.key)).toContain('${{ github.run_id }}'); // a new entry each run
  expect(String(steps[restore]!.with!['restore-keys'])).toMatch(/^mailclean-/);
  const node = steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
  expect(['22', '24', '${{ inputs.node-version }}']).toContain(String(node?.with?.['node-version']));
  for (const s of steps) expect(s.run ?? '').not.toMatch(/npm (install|i) (-g )?mailclean\b|npx mailclean/);
}

describe("README's GitHub Actions workflow", () => {
  const workflow = parse(yamlBlock('Cleaning in CI')) as {
    jobs: Record<string, { steps: Step[]; env: Record<string, string> }>;
  };
  const job = Object.values(workflow.jobs)[0]!;

  it('restores the data directory, runs with --resume, and saves it even when the run fails', () => {
    keepsItsData(job.steps, (s) => /^mailclean clean .*--resume/.test(s.run ?? ''));
    expect(job.env.MAILCLEAN_DATA_DIR).toBe('${{ github.workspace }}/.mailclean');
    expect(job.steps.find((s) => s.uses?.startsWith('actions/cache/restore@'))!.with!.path).toBe('.mailclean');
  });

  it('installs mailclean from a clone, and uploads the results whatever happened', () => {
    expect(job.steps.some((s) => /git clone .*\n.*npm ci .*npm install -g \./.test(s.run ?? ''))).toBe(true);
    const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.if).toBe('always()');
  });

  it("the action's short form names inputs the action has", () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
    const short = parse(yamlBlock('Cleaning in CI', 1)) as Step[];
    const uses = short.find((s) => s.uses?.startsWith('mailclean/mailclean@'));
    for (const input of Object.keys(uses!.with!)) expect(Object.keys(action.inputs)).toContain(input);
  });
});

describe('the composite action (action.yml)', () => {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
    runs: { using: string; steps: Step[] };
    inputs: Record<string, { default?: string }>;
  };

  it('is composite: Node, restore, install from its own checkout, run, and an always() save', () => {
    expect(action.runs.using).toBe('composite');
    keepsItsData(action.runs.steps, (s) => (s.run ?? '').includes('mailclean $MAILCLEAN_ARGS'));
    expect(
      action.runs.steps.some(
        (s) => (s.run ?? '').includes('"$GITHUB_ACTION_PATH"') && (s.run ?? '').includes('npm install -g .'),
      ),
    ).toBe(true);
    expect(action.inputs['node-version']?.default).toBe('22');
  });

  it('passes the arguments through the environment, not pasted into the script', () => {
    const run = action.runs.steps.find((s) => (s.run ?? '').includes('mailclean $MAILCLEAN_ARGS'))!;
    expect(run.run).not.toContain('${{');
    expect(run.env!.MAILCLEAN_ARGS).toBe('${{ inputs.args }}');
  });
});
