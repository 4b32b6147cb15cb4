// Runs a composite action's steps as a GitHub runner does, on this machine: `${{ }}` expressions over the inputs,
// github, strategy, runner and steps contexts; `if:` (with the implicit success()); each `run:` as
// `bash --noprofile --norc -eo pipefail FILE` in the workspace, with the variables a runner sets, a fresh
// GITHUB_OUTPUT file read back into the step's outputs, GITHUB_STEP_SUMMARY, GITHUB_ENV and GITHUB_PATH; the
// workflow commands on stdout (`::error::`, `::warning::`). actions/cache/restore and save, which are not ours to
// run, are played by a store of directories with GitHub's rules: an exact key first, then the newest entry
// whose key starts with a restore key; a key is written once (a second save of it is refused with a warning).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

interface Step {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface ActionFile {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

/** The repository's cache, shared by the jobs and runs of a test. */
export class CacheStore {
  readonly entries: { key: string; dir: string }[] = [];
  readonly refused: string[] = [];
  private readonly root = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'mailclean-caches-'));

  restore(path: string, key: string, restoreKeys: string[]): string | undefined {
    const newestFirst = [...this.entries].reverse();
    const hit =
      newestFirst.find((e) => e.key === key) ??
      restoreKeys.map((prefix) => newestFirst.find((e) => e.key.startsWith(prefix))).find(Boolean);
    if (hit) cpSync(hit.dir, path, { recursive: true });
    return hit?.key;
  }

  save(path: string, key: string): void {
    if (this.entries.some((e) => e.key === key) || !existsSync(path)) return void this.refused.push(key);
    const dir = join(this.root, String(this.entries.length));
    cpSync(path, dir, { recursive: true });
    this.entries.push({ key, dir });
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

export interface Job {
  /** Holds the workspace, the runner's temp and its command files. */
  dir: string;
  github: Record<string, unknown> & { run_id: string; run_attempt: string; job: string; workspace: string };
  strategy?: { 'job-index': number };
  /** The job's environment (PATH among it). */
  env: Record<string, string>;
  caches: CacheStore;
}

export interface ActionRun {
  outputs: Record<string, string>;
  steps: { id: string; outcome: 'success' | 'failure' | 'skipped'; stdout: string; stderr: string }[];
  annotations: { level: string; text: string }[];
  restoredKey?: string;
  savedKey?: string;
  files: { summary: string; env: string; path: string };
}

export async function runAction(actionDir: string, inputs: Record<string, string>, job: Job): Promise<ActionRun> {
  const action = parse(readFileSync(join(actionDir, 'action.yml'), 'utf8')) as ActionFile;
  const temp = join(job.dir, 'runner-temp');
  mkdirSync(temp, { recursive: true });
  mkdirSync(job.github.workspace, { recursive: true });
  const files = { summary: join(job.dir, 'step-summary.md'), env: join(job.dir, 'env'), path: join(job.dir, 'path') };
  for (const file of Object.values(files)) writeFileSync(file, '', { flag: 'a' });
  const steps: Record<string, { outputs: Record<string, string>; outcome: string }> = {};
  const context = { inputs: {} as Record<string, string>, github: job.github, strategy: job.strategy ?? {}, steps };
  Object.assign(context, { runner: { os: 'Linux', arch: 'X64', temp } });
  for (const [name, spec] of Object.entries(action.inputs)) {
    context.inputs[name] = inputs[name] ?? interpolate(spec.default ?? '', context);
  }
  const result: ActionRun = { outputs: {}, steps: [], annotations: [], files };
  let failed = false;
  for (const [index, step] of action.runs.steps.entries()) {
    const id = step.id ?? `__step${index}`;
    const status = { failed };
    if (!condition(step.if, context, status)) {
      steps[id] = { outputs: {}, outcome: 'skipped' };
      result.steps.push({ id, outcome: 'skipped', stdout: '', stderr: '' });
      continue;
    }
    const withs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, interpolate(v, context)]));
    const path = withs.path ? join(job.github.workspace, withs.path) : '';
    if (step.uses?.startsWith('actions/cache/restore@')) {
      const keys = (withs['restore-keys'] ?? '').split('\n').filter(Boolean);
      result.restoredKey = job.caches.restore(path, withs.key!, keys);
      steps[id] = { outputs: { 'cache-matched-key': result.restoredKey ?? '' }, outcome: 'success' };
      result.steps.push({ id, outcome: 'success', stdout: '', stderr: '' });
    } else if (step.uses?.startsWith('actions/cache/save@')) {
      job.caches.save(path, withs.key!);
      result.savedKey = withs.key;
      steps[id] = { outputs: {}, outcome: 'success' };
      result.steps.push({ id, outcome: 'success', stdout: '', stderr: '' });
    } else if (step.run !== undefined) {
      const output = join(temp, `output-${index}`);
      writeFileSync(output, '');
      const script = join(temp, `step-${index}.sh`);
      writeFileSync(script, interpolate(step.run, context));
      const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, interpolate(v, context)]));
      const env = {
        ...job.env,
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_ACTION_PATH: actionDir,
        GITHUB_WORKSPACE: job.github.workspace,
        GITHUB_RUN_ID: job.github.run_id,
        GITHUB_RUN_ATTEMPT: job.github.run_attempt,
        GITHUB_JOB: job.github.job,
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: files.summary,
        GITHUB_ENV: files.env,
        GITHUB_PATH: files.path,
        RUNNER_OS: 'Linux',
        RUNNER_ARCH: 'X64',
        RUNNER_TEMP: temp,
        ...stepEnv,
      };
      const res = await bash(script, job.github.workspace, env);
      const outcome = res.status === 0 ? 'success' : 'failure';
      steps[id] = { outputs: readOutputs(output), outcome };
      result.steps.push({ id, outcome, stdout: res.stdout, stderr: res.stderr });
      for (const [, level, text] of res.stdout.matchAll(/^::(error|warning|notice)[^:]*::(.*)$/gm))
        result.annotations.push({ level: level!, text: decodeURIComponent(text!.replaceAll('%0A', '\n')) });
      failed ||= outcome === 'failure';
    }
  }
  for (const [name, spec] of Object.entries(action.outputs)) result.outputs[name] = interpolate(spec.value, context);
  return result;
}

function bash(script: string, cwd: string, env: Record<string, string>) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** `name=value` lines and `name<<DELIMITER` blocks, as the runner reads GITHUB_OUTPUT. */
function readOutputs(file: string): Record<string, string> {
  const lines = readFileSync(file, 'utf8').split('\n');
  const outputs: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^=<]+)<<(.+)$/.exec(lines[i]!);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      outputs[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (lines[i]!.includes('=')) {
      const at = lines[i]!.indexOf('=');
      outputs[lines[i]!.slice(0, at)] = lines[i]!.slice(at + 1);
    }
  }
  return outputs;
}

function interpolate(text: string, context: object): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, expr: string) => {
    const value = evaluate(expr, context, { failed: false });
    return value === null || value === undefined ? '' : String(value);
  });
}

function condition(expr: string | undefined, context: object, status: { failed: boolean }): boolean {
  if (expr === undefined) return !status.failed;
  const source = expr.replace(/^\$\{\{(.*)\}\}$/s, '$1');
  const checksStatus = /\b(always|success|failure|cancelled)\(\)/.test(source);
  return Boolean(evaluate(source, context, status)) && (checksStatus || !status.failed);
}

/** The expression language's subset the action uses: paths, string and boolean literals, == != && || !, status functions. */
function evaluate(expr: string, context: object, status: { failed: boolean }): unknown {
  let js = expr.replace(/'((?:[^']|'')*)'|([A-Za-z_][\w-]*(?:\.[\w-]+)*)(\(\))?/g, (_m, str, path, call) => {
    if (str !== undefined) return JSON.stringify(str.replaceAll("''", "'"));
    if (call) return `fn.${path}()`;
    if (path === 'true' || path === 'false' || path === 'null') return path;
    return `get(${JSON.stringify(path)})`;
  });
  const operand = String.raw`(get\("[^"]*"\)|"(?:[^"\\]|\\.)*"|true|false|null|\d+)`;
  js = js.replace(new RegExp(`${operand}\\s*(==|!=)\\s*${operand}`, 'g'), (_m, a, op, b) =>
    op === '==' ? `eq(${a}, ${b})` : `!eq(${a}, ${b})`,
  );
  const get = (path: string) =>
    path.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown> | null)?.[key] ?? null, context);
  const fn = {
    always: () => true,
    success: () => !status.failed,
    failure: () => status.failed,
    cancelled: () => false,
  };
  return new Function('get', 'fn', 'eq', `return (${js});`)(get, fn, equal);
}

/** GitHub's ==: strings of either case are equal; across types both become numbers (null and '' are 0). */
function equal(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  const number = (v: unknown) => (v === null ? 0 : typeof v === 'boolean' ? Number(v) : Number(v));
  return number(a) === number(b);
}
