#!/usr/bin/env node
// Startup of everyday commands, before and after the release bundle: the checkout's build (tsc's module per file
// with its node_modules, what an install from a clone runs) and the release (`npm run release`, installed from its
// tarball into bench/tmp), interleaved so machine noise hits all alike, with Node's compile cache as
// bin/mailclean.js turns it on. Baselines measured in the same run: `node -e 0`, and a bare commander program with
// mailclean's commands, options and arguments (generated from the built command tree) for `--help` and every
// `COMMAND --help`. `me` runs against the built-in sandbox (zero config), so it includes starting that server
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
  'clean --local, 12 rows': ['clean', list, '--local', '-o', join(work, 'out.csv'), '--dns-server', dns.server],
  'config list': ['config', 'list'],
  'me (sandbox)': ['me'],
};
const cases = { 'node -e 0': ['-e', '0'], 'commander --help': [bare, '--help'] };
// Every command's help against the bare program's help for the same command (issue 33: within 1.1x, reading
// option definitions only).
for (const { name } of tree.commands) {
  cases[`commander ${name} --help`] = [bare, name, '--help'];
  commands[`${name} --help`] = [name, '--help'];
}
for (const [name, args] of Object.entries(commands))
  for (const [build, bin] of Object.entries(builds)) cases[`${name}, ${build}`] = [bin, ...args];
// What each is held to, against which baseline; the release is what users install.
const baselineOf = (name) =>
  name.includes('--help') && !name.startsWith('commander') ? `commander ${name.split(',')[0]}` : 'node -e 0';
const targetOf = (name) => (name === '--version, release' ? 1.3 : name.endsWith('--help, release') ? 1.1 : undefined);

// bash times the child from inside (its own start is not counted) and reports the child's CPU (`times`, in ms):
// CPU varies far less than wall on this shared machine, so both are shown.
const TIMED = 't0=$EPOCHREALTIME; "$@" >/dev/null; rc=$?; t1=$EPOCHREALTIME; times; echo "$t0 $t1 $rc"';
const seconds = (text) => {
  const [, m, s] = /(\d+)m([\d.]+)s/.exec(text);
  return Number(m) * 60 + Number(s);
};

function timeOnce(args) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', TIMED, 'bash', process.execPath, ...args], { stdio: 'pipe', env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', () => {
      const lines = stdout.trim().split('\n');
      const [t0, t1, code] = lines.at(-1).split(' ');
      if (code !== '0') return reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      const [user, sys] = lines.at(-2).split(' ').map(seconds);
      resolve({ ms: (Number(t1) - Number(t0)) * 1000, cpuMs: (user + sys) * 1000 });
    });
  });
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  return s[Math.floor(at)] + (s[Math.ceil(at)] - s[Math.floor(at)]) * (at - Math.floor(at));
};

try {
  // One untimed round warms the file cache, the compile cache and the sandbox account `me` signs in with.
  for (const args of Object.values(cases)) await timeOnce(args);
  // Rounds alternate every case, so a busy moment of this shared machine hits a case and its baseline alike: the
  // ratio is taken within each round, and its median and interquartile range over the rounds are shown.
  const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let i = 0; i < runs; i++)
    for (const [name, args] of Object.entries(cases)) samples[name].push(await timeOnce(args));

  console.log(
    `startup, ${runs} alternating rounds, node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`,
  );
  console.log('wall and CPU: median ms; ratio to the baseline within each round: median [p25-p75] over the rounds');
  console.log(`${'case'.padEnd(34)} ${'wall'.padStart(7)} ${'CPU'.padStart(7)}  ${'wall ratio'.padEnd(19)} CPU ratio`);
  let failed = false;
  for (const name of Object.keys(cases)) {
    const against = baselineOf(name);
    const target = targetOf(name);
    const ratios = (key) => samples[name].map((s, round) => s[key] / samples[against][round][key]);
    const shown = (xs) =>
      `${quantile(xs, 0.5).toFixed(2)}x [${quantile(xs, 0.25).toFixed(2)}-${quantile(xs, 0.75).toFixed(2)}]`;
    const wall = ratios('ms');
    if (target !== undefined && quantile(wall, 0.5) > target) failed = true;
    const verdict =
      target === undefined ? '' : quantile(wall, 0.5) <= target ? `  ok (<= ${target}x)` : `  OVER ${target}x`;
    const median = (key) =>
      quantile(
        samples[name].map((s) => s[key]),
        0.5,
      )
        .toFixed(1)
        .padStart(7);
    const ratio =
      name === against ? 'baseline' : `${shown(wall).padEnd(19)} ${shown(ratios('cpuMs'))}  ${against}${verdict}`;
    console.log(`${name.padEnd(34)} ${median('ms')} ${median('cpuMs')}  ${ratio}`);
  }
  process.exitCode = failed ? 1 : 0;
} finally {
  dns.close();
  rmSync(home, { recursive: true, force: true });
}
