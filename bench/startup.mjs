#!/usr/bin/env node
// Startup of everyday commands, before and after the release bundle: the checkout's build (tsc's module per file
// with its node_modules, what an install from a clone runs) and the release (`npm run release`, installed from its
// tarball into bench/tmp), interleaved so machine noise hits all alike, with Node's compile cache as
// bin/mailclean.js turns it on. Baselines measured in the same run: `node -e 0`, and a bare commander program with
// mailclean's commands, options and arguments (generated from the built command tree) for `--help` and
// `clean --help`. `me` runs against the built-in sandbox (zero config), so it includes starting that server
// in-process; the 12-row clean asks a DNS server on loopback. Needs a build (npm ci runs it).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generatedList, root, startDns } from './lib.mjs';

const runs = Number(process.env.BENCH_RUNS ?? 21);
// Under .tmp/, not bench/tmp/: the installed packages there are not ours to lint.
const work = join(root, '.tmp', 'bench-startup');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

// The release, installed as users install it (nothing fetched: it has no dependencies).
execFileSync(process.execPath, [join(root, 'tools', 'release.mjs'), '--out', join(work, 'release')], {
  stdio: 'ignore',
});
const { version } = (await import(pathToFileURL(join(root, 'package.json')).href, { with: { type: 'json' } })).default;
execFileSync('npm', [
  'install',
  '-g',
  '--prefix',
  join(work, 'prefix'),
  '--offline',
  '--no-audit',
  '--no-fund',
  '--loglevel',
  'error',
  join(work, 'release', `mailclean-${version}.tgz`),
]);
const builds = {
  checkout: join(root, 'bin', 'mailclean.js'),
  release: join(work, 'prefix', 'lib', 'node_modules', 'mailclean', 'bin', 'mailclean.js'),
};

// The bare commander program: the same commands, options and arguments, nothing else.
const { commandTree } = await import(pathToFileURL(join(root, 'dist', 'main.js')).href);
const { processIO } = await import(pathToFileURL(join(root, 'dist', 'io', 'io.js')).href);
const describe = (cmd) => ({
  name: cmd.name(),
  description: cmd.description(),
  options: cmd.options.map((o) => [o.flags, o.description]),
  args: cmd.registeredArguments.map(
    (a) => `${a.required ? '<' : '['}${a.name()}${a.variadic ? '...' : ''}${a.required ? '>' : ']'}`,
  ),
  commands: cmd.commands.map(describe),
});
const tree = describe(await commandTree(processIO()));
const bare = join(work, 'commander.mjs');
writeFileSync(
  bare,
  `import { Command } from ${JSON.stringify(pathToFileURL(join(root, 'node_modules', 'commander', 'index.js')).href)};
const tree = ${JSON.stringify(tree)};
const build = (cmd, t) => {
  cmd.description(t.description);
  for (const [flags, description] of t.options) if (flags !== '-V, --version' && flags !== '-h, --help') cmd.option(flags, description);
  for (const arg of t.args) cmd.argument(arg);
  for (const sub of t.commands) build(cmd.command(sub.name), sub);
  return cmd;
};
build(new Command('mailclean').version(${JSON.stringify(version)}), tree).parse();
`,
);

const dns = await startDns(() => true);
const list = generatedList(12, { name: 'list-12.csv', domains: 3 });
const home = join(work, 'home');
const env = {
  ...process.env,
  NO_COLOR: '1',
  MAILCLEAN_CONFIG_DIR: join(home, 'config'),
  MAILCLEAN_DATA_DIR: join(home, 'data'),
};
delete env.MAILCLEAN_API_URL;
delete env.MAILCLEAN_TOKEN;
const commands = {
  '--version': ['--version'],
  '--help': ['--help'],
  'clean --help': ['clean', '--help'],
  'clean --local, 12 rows': ['clean', list, '--local', '-o', join(work, 'out.csv'), '--dns-server', dns.server],
  'config list': ['config', 'list'],
  'me (sandbox)': ['me'],
};
const cases = {
  'node -e 0': ['-e', '0'],
  'commander --help': [bare, '--help'],
  'commander clean --help': [bare, 'clean', '--help'],
};
for (const [name, args] of Object.entries(commands))
  for (const [build, bin] of Object.entries(builds)) cases[`${name}, ${build}`] = [bin, ...args];
// What each is held to, against which baseline (issue 32: help within 1.1x a bare commander program).
const targets = {
  '--version, release': ['node -e 0', 1.3],
  '--help, release': ['commander --help', 1.1],
  'clean --help, release': ['commander clean --help', 1.1],
};
const baselineOf = (name) =>
  name.startsWith('--help')
    ? 'commander --help'
    : name.startsWith('clean --help')
      ? 'commander clean --help'
      : 'node -e 0';

function timeOnce(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

try {
  // One untimed round warms the file cache, the compile cache and the sandbox account `me` signs in with.
  for (const args of Object.values(cases)) await timeOnce(args);
  const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let i = 0; i < runs; i++)
    for (const [name, args] of Object.entries(cases)) samples[name].push(await timeOnce(args));

  const medians = Object.fromEntries(Object.entries(samples).map(([name, xs]) => [name, median(xs)]));
  console.log(
    `startup, median of ${runs} runs, node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`,
  );
  let failed = false;
  for (const name of Object.keys(cases)) {
    const [against, target] = targets[name] ?? [baselineOf(name), undefined];
    const ratio = medians[name] / medians[against];
    const verdict =
      target === undefined ? '' : ratio <= target ? `ok (target <= ${target}x)` : `OVER target ${target}x`;
    if (target !== undefined && ratio > target) failed = true;
    const shown = name === against ? 'baseline' : `${ratio.toFixed(2)}x ${against}  ${verdict}`;
    console.log(`${name.padEnd(36)} ${medians[name].toFixed(1).padStart(7)} ms  ${shown}`);
  }
  process.exitCode = failed ? 1 : 0;
} finally {
  dns.close();
  rmSync(home, { recursive: true, force: true });
}
