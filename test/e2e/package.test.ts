// The package as users get it: the release tarball (`npm run release`: one bundle, no dependencies, no scripts),
// installed by the README's own lines, from a file and from a release URL (a server on loopback), into empty
// prefixes with a registry that refuses every request (nothing may be fetched), then run: help, version, a clean
// with the built-in engine, an account on the built-in sandbox; and installed into a project, imported as a library
// (`import 'mailclean'`) and type-checked against its declarations.
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';
import { VERSION } from '../../src/version.js';
import { closedPort, type TestServer } from '../helpers/http-server.js';
import { type LocalRegistry, startRegistry } from '../helpers/registry.js';
import { onLoopback, releaseFiles, serveRelease, TARBALL } from '../helpers/release.js';

const ROOT = join(import.meta.dirname, '..', '..');
// npm and the installed bin run on the Node running the tests.
const PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`;

/** Runs without blocking this process: the release server answers from it. */
function run(
  command: string,
  args: string[],
  opts: { cwd?: string; env?: Record<string, string>; input?: string } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: opts.cwd ?? ROOT, env: { ...process.env, PATH, ...opts.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(opts.input ?? '');
    child.on('error', (error) => resolve({ status: null, stdout, stderr: String(error) }));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function runSync(
  command: string,
  args: string[],
  env: Record<string, string>,
  input?: string,
): SpawnSyncReturns<string> {
  return spawnSync(command, args, { env: { ...process.env, PATH, ...env }, input, encoding: 'utf8', timeout: 60_000 });
}

/** The npm cache `npm ci` filled (where the registry on loopback reads the locked packages). */
function npmCache(): string {
  return spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
}

/** The shell lines of the README's Install section that install from a release or a tarball. */
function readmeInstallLines(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Install\n'), readme.indexOf('\n## Commands\n'));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap(([, block]) => (block as string).split('\n'))
    .filter((line) => line.startsWith('npm install -g ./') || line.startsWith('npm install -g http'));
}

describe('the npm package', { timeout: 120_000 }, () => {
  let dir: string;
  let files: string;
  let server: TestServer & { requests: string[] };
  let registry: LocalRegistry;
  let env: Record<string, string>;
  const installs: { line: string; prefix: string; status: number | null; stderr: string }[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mailclean-package-'));
    files = releaseFiles(join(dir, 'release'));
    server = await serveRelease(files);
    // Only the credential store's binding comes from a registry: one on loopback serving the lock from the npm cache.
    registry = await startRegistry(join(ROOT, 'package-lock.json'), npmCache());
    env = { MAILCLEAN_CONFIG_DIR: join(dir, 'config'), MAILCLEAN_DATA_DIR: join(dir, 'data'), NO_COLOR: '1' };
    // The clone's lines run where `npm run release` left its tarball.
    const cwd = join(dir, 'clone');
    mkdirSync(cwd);
    symlinkSync(files, join(cwd, 'release'));
    const lines = readmeInstallLines();
    const results = await Promise.all(
      lines.map((line, i) => {
        const prefix = join(dir, `prefix-${i}`);
        const args = [...onLoopback(line, server).split(' ').slice(1), '--prefix', prefix, '--registry', registry.url];
        return run('npm', [...args, '--cache', join(dir, `npm-cache-${i}`), '--no-audit', '--no-fund'], { cwd });
      }),
    );
    for (const [i, line] of lines.entries()) {
      const { status, stderr } = results[i]!;
      installs.push({ line, prefix: join(dir, `prefix-${i}`), status, stderr });
    }
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    await registry?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const bin = () => join(installs[0]!.prefix, 'bin', 'mailclean');

  it('holds the bundle, its licences, the docs README links to; no sources, no scripts, one optional dependency', () => {
    const tarball = join(files, TARBALL);
    const listed = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout.trim().split('\n');
    for (const file of [
      'package/bin/mailclean.js',
      'package/dist/cli/main.js',
      'package/dist/verify/disposable-domains.txt',
      'package/dist/THIRD-PARTY-LICENSES.txt',
      'package/README.md',
      'package/LICENSE',
      'package/CHANGELOG.md',
      'package/man/mailclean.1',
      'package/docs/json.md',
      'package/docs/api.md',
      'package/dist/index.js',
      'package/dist/types/library/index.d.ts',
    ])
      expect(listed).toContain(file);
    expect(listed.filter((f) => /^package\/(src|test|bench|fixtures|tools|node_modules)\//.test(f))).toEqual([]);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const [, link] of readme.matchAll(/\]\((docs\/[^)#]+)/g)) expect(listed).toContain(`package/${link}`);
    const manifest = JSON.parse(
      spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout,
    );
    expect(manifest).toMatchObject({
      name: 'mailclean',
      version: VERSION,
      bin: { mailclean: 'bin/mailclean.js' },
      exports: { '.': { types: './dist/types/library/index.d.ts', default: './dist/index.js' } },
    });
    for (const field of ['dependencies', 'peerDependencies', 'scripts']) expect(manifest).not.toHaveProperty(field);
    // The OS credential store's native binding (prebuilt, no install script) cannot be bundled.
    expect(Object.keys(manifest.optionalDependencies)).toEqual(['@napi-rs/keyring']);
  });

  it("installs by the README's lines, from a release URL and from the clone's tarball, fetching nothing else", () => {
    expect(installs.map((i) => i.line)).toEqual([
      `npm install -g https://github.com/mailclean/mailclean/releases/download/v${VERSION}/${TARBALL}`,
      `npm install -g ./release/${TARBALL}`,
    ]);
    for (const install of installs) {
      expect(install.status, install.stderr).toBe(0);
      // npm 11 warns about any install-time script (`prepare` included): there is none to warn about.
      expect(install.stderr).not.toMatch(/warn/i);
    }
    expect(new Set(server.requests)).toEqual(new Set([`/v${VERSION}/${TARBALL}`]));
    expect(registry.missing).toEqual([]);
  });

  it('takes under 15 MB installed', () => {
    const du = spawnSync('du', ['-sb', join(installs[0]!.prefix, 'lib', 'node_modules', 'mailclean')], {
      encoding: 'utf8',
    });
    expect(Number(du.stdout.split('\t')[0])).toBeLessThan(15 * 2 ** 20);
  });

  it('puts its man page where `man` looks', () => {
    const page = join(installs[0]!.prefix, 'share', 'man', 'man1', 'mailclean.1');
    expect(readFileSync(page, 'utf8')).toMatch(/^\.TH MAILCLEAN 1 /);
  });

  it('answers --version and --help, loading a small part of the bundle for each', () => {
    const installed = join(installs[0]!.prefix, 'lib', 'node_modules', 'mailclean');
    const bundle = readdirSync(join(installed, 'dist'), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.js'))
      .reduce((bytes, name) => bytes + statSync(join(installed, 'dist', name)).size, 0);
    const version = modulesLoaded(installed, ['--version'], env);
    expect(version.stdout).toBe(`${VERSION}\n`);
    const help = modulesLoaded(installed, ['--help'], env);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: mailclean /m);
    for (const [args, loaded] of [
      ['--version', version],
      ['--help', help],
    ] as const) {
      // Commands load lazily: help reads commander and the command table, not the engine, HTTP, workbooks or Redis,
      // nor the library API's entry.
      expect(loaded.bytes, args).toBeLessThan(bundle / 20);
      expect(loaded.files).not.toContain(join(installed, 'dist', 'index.js'));
    }
  });

  it("answers every COMMAND --help from that command's flags and help text, never its implementation", () => {
    const installed = join(installs[0]!.prefix, 'lib', 'node_modules', 'mailclean');
    const program = modulesLoaded(installed, ['--help'], env).bytes;
    for (const { name } of COMMANDS) {
      const loaded = modulesLoaded(installed, [name, '--help'], env);
      expect(loaded.stdout, name).toMatch(new RegExp(`^Usage: mailclean ${name} `, 'm'));
      // An implementation takes tens of kilobytes with what it imports; flags and help text take a few (clean's
      // help, with the meaning of every status and reason, about 13 kB).
      expect(loaded.bytes - program, name).toBeLessThan(name === 'clean' ? 16 * 1024 : 8 * 1024);
      expect(loaded.files, name).not.toContain(join(installed, 'dist', 'index.js'));
    }
  });

  it('cleans a list with the built-in engine (DNS kept on loopback): every row back, exit 0', async () => {
    const input = join(ROOT, 'fixtures', 'clean', 'mailchimp.csv');
    const out = join(dir, 'cleaned.csv');
    const res = runSync(bin(), ['clean', input, '-o', out, '--dns-server', `127.0.0.1:${await closedPort()}`], env);
    expect(res.status, res.stderr).toBe(0);
    const rows = (text: string) => text.trim().split(/\r?\n/).length;
    expect(rows(readFileSync(out, 'utf8'))).toBe(rows(readFileSync(input, 'utf8')));
    expect(readFileSync(out, 'utf8').split(/\r?\n/)[0]).toMatch(/,email_status,/);
  });

  it('imports as a library in a project that installed it: clean, verify, a profile, typed errors, its types', async () => {
    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{ "name": "uses-mailclean", "private": true, "type": "module" }\n');
    const cache = ['--cache', join(dir, 'npm-cache'), '--registry', registry.url, '--no-audit', '--no-fund'];
    const installed = await run('npm', ['install', join(files, TARBALL), ...cache], { cwd: project });
    expect(installed.status, installed.stderr).toBe(0);
    writeFileSync(join(project, 'use.mjs'), LIBRARY_USE);
    const library = join(project, 'node_modules', 'mailclean');
    const used = modulesLoaded(
      library,
      [],
      { ...env, DNS: `127.0.0.1:${await closedPort()}` },
      {
        script: join(project, 'use.mjs'),
        cwd: project,
      },
    );
    expect(used.status, used.stderr).toBe(0);
    // The CLI's entry holds the modules every command shares (tools/bundle.mjs): the library never loads it.
    expect(used.files).toContain(join(library, 'dist', 'index.js'));
    expect(used.files).not.toContain(join(library, 'dist', 'cli', 'main.js'));
    expect(JSON.parse(used.stdout)).toEqual({
      rows: [
        ['bad@example.invalid', 'invalid'],
        ['not an address', 'invalid'],
      ],
      kind: 'finished',
      verified: 'invalid',
      viaProfile: 'local',
      // Reading a profile loads conf, which hooks SIGINT and SIGTERM: the program's signals stay its own.
      signalListeners: 0,
      error: { name: 'UsageError', usage: true, cli: true, exitCode: 2 },
    });
    writeFileSync(join(project, 'use.ts'), LIBRARY_TYPES);
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const options = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2023', '--lib', 'es2023'];
    const typeRoots = ['--types', 'node', '--typeRoots', join(ROOT, 'node_modules', '@types')];
    const checked = await run(process.execPath, [tsc, ...options, ...typeRoots, 'use.ts'], { cwd: project });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });

  it('registers on the built-in sandbox and shows the account', () => {
    const reg = runSync(
      bin(),
      ['register', '--name', 'Ada', '--email', 'ada@example.com', '--password-stdin'],
      env,
      'a long password',
    );
    expect(reg.status, reg.stderr).toBe(0);
    const me = runSync(bin(), ['me', '--json', 'email'], env);
    expect(me.status, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout)).toEqual({ email: 'ada@example.com' });
  });
});

/** A program using the installed package: a clean of rows, a verify, a client from a profile, a typed error. */
const LIBRARY_USE = `
import { clean, verify, createClient, CliError, UsageError } from 'mailclean';
const dataDir = process.env.MAILCLEAN_DATA_DIR;
const dnsServers = process.env.DNS;
const run = clean(['bad@example.invalid', 'not an address'], { dataDir, dnsServers, env: {} });
const rows = [];
for await (const row of run) rows.push([row.email, row.email_status]);
const { kind } = await run.result;
const [verified] = await verify(['x@example.invalid'], { dataDir, dnsServers, env: {} });
const client = createClient({ profile: 'default', env: { ...process.env, MAILCLEAN_DNS_SERVERS: dnsServers } });
const [viaProfile] = await client.verify(['y@example.invalid']);
await client.close();
const error = await clean('no-such-list.csv', { dataDir, env: {} }).result.catch((e) => e);
const signalListeners = process.listenerCount('SIGINT') + process.listenerCount('SIGTERM');
console.log(JSON.stringify({
  rows, kind, verified: verified.status, viaProfile: viaProfile.checker, signalListeners,
  error: { name: error.name, usage: error instanceof UsageError, cli: error instanceof CliError, exitCode: error.exitCode },
}));
`;

/** The same through the package's declarations: what compiles, and what does not. */
const LIBRARY_TYPES = `
import { clean, createClient, type CleanEvent, type CleanResult, type ResultRow, UsageError } from 'mailclean';
const run = clean([{ email: 'a@example.com' }], { local: true, onEvent: (e: CleanEvent) => void e.type });
const result: Promise<CleanResult> = run.result;
for await (const row of run) {
  const r: ResultRow = row;
  void r.email_status;
}
const client = createClient({ cleanUrl: 'https://clean.example', token: 't', rate: '50/5m' });
const found: string = (await client.verify(['a@example.com']))[0]!.status;
void [result, found, new UsageError('x').exitCode];
// @ts-expect-error an option clean() does not take
clean('list.csv', { nonsense: true });
// @ts-expect-error rows are objects, arrays of cells or addresses
clean([42]);
`;

/** A run of the installed bin with `args`: its output, and its package's files that it loaded (a resolve hook lists
 * them) with their bytes. */
function modulesLoaded(
  installed: string,
  args: string[],
  env: Record<string, string>,
  { script = join(installed, 'bin', 'mailclean.js'), cwd = ROOT } = {},
): { status: number | null; stdout: string; stderr: string; bytes: number; files: string[] } {
  const log = join(mkdtempSync(join(tmpdir(), 'mailclean-loaded-')), 'loaded.txt');
  const hook = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, resolved.url + '\\\\n');
  return resolved;
}\`));`)}`;
  const { status, stdout, stderr } = spawnSync(process.execPath, ['--import', hook, script, ...args], {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  const urls = new Set(readFileSync(log, 'utf8').trim().split('\n'));
  rmSync(dirname(log), { recursive: true, force: true });
  const files = [...urls]
    .map((url) => (url.startsWith('file:') ? new URL(url).pathname : ''))
    .filter((path) => path.startsWith(installed));
  return { status, stdout, stderr, bytes: files.reduce((bytes, path) => bytes + statSync(path).size, 0), files };
}
