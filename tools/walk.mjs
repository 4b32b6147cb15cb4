// The walk of a service clean: which modules of dist/ a signed-in `clean` against the built-in sandbox loads
// ("rooms entered"), and how often an import goes back up the layers or round a cycle ("climbs back").
// With --calls, the same run is profiled (V8's sampling profiler at 25 µs) and the walk is the calls themselves:
// the modules whose functions ran, the calls from a lower layer back into a higher one (callbacks), and the calls
// across the line between commands/ and clean/ in each direction (distinct caller -> callee function pairs).
// Usage: npm run build && node tools/walk.mjs [--list] [--calls]
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
const home = mkdtempSync(join(tmpdir(), 'mailclean-walk-'));
const env = { ...process.env, MAILCLEAN_CONFIG_DIR: join(home, 'config'), MAILCLEAN_DATA_DIR: join(home, 'data'), NO_COLOR: '1', CI: '' };
// Asynchronous: the sandbox answers from this process.
function cli(args, extra = {}) {
  const child = spawn(process.execPath, [...(extra.node ?? []), join(root, 'bin/mailclean.js'), ...args], { env: { ...env, ...extra.env } });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdout.resume();
  child.stdin.end(extra.input ?? '');
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stderr })));
}

// Layers, top first: an import from a lower layer to a higher one is a climb back.
const LAYERS = [/^main\.js$/, /^commands\//, /^factory\.js$/, /^(clean|account|state)\//, /^(api|verify|sandbox)\//, /./];
const layerOf = (name) => LAYERS.findIndex((re) => re.test(name));

// Layers for calls, top first; within clean/ the run above the stages above the state.
const CALL_LAYERS = [
  /^main\.js$/,
  /^commands\//,
  /^factory\.js$/,
  /^clean\/run\//,
  /^clean\/(?!state\/)/,
  /^clean\/state\//,
  /^(api|verify|sandbox)\//,
  /./,
];
const callLayerOf = (name) => CALL_LAYERS.findIndex((re) => re.test(name));

const { startSandbox } = await import(join(dist, 'sandbox/server.js'));
const sandbox = await startSandbox({ plan: 'unlimited' });
try {
  const urls = ['--api-url', sandbox.url, '--clean-url', sandbox.url];
  const reg = await cli([...urls, 'register', '--service', 'clean', '--name', 'Walk', '--email', 'walk@example.com', '--password-stdin'], { input: 'a long password' });
  if (reg.status !== 0) throw new Error(`register failed: ${reg.stderr}`);
  const log = join(home, 'edges.ndjson');
  const profiles = join(home, 'profiles');
  const calls = process.argv.includes('--calls');
  // Sampling misses short calls: the calls are the union of several runs' profiles.
  for (let round = 0; round < (calls ? 8 : 1); round++) {
    const again = round > 0 ? ['--restart'] : [];
    const run = await cli(['clean', join(root, 'fixtures/clean/mailchimp.csv'), '-o', join(home, 'out.csv'), '--yes', ...again], {
      node: [
        '--import',
        join(root, 'tools/walk-hook.mjs'),
        ...(calls ? ['--cpu-prof', '--cpu-prof-interval', '25', '--cpu-prof-dir', profiles] : []),
      ],
      env: { MAILCLEAN_WALK_LOG: log },
    });
    if (run.status !== 0) throw new Error(`clean exited ${run.status}: ${run.stderr}`);
  }
  report(readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line)));
  if (process.argv.includes('--calls')) reportCalls(profiles);
} finally {
  await sandbox.close();
  rmSync(home, { recursive: true, force: true });
}

function report(raw) {
  const inDist = (url) => url?.startsWith(`file://${dist}/`);
  const name = (url) => relative(dist, new URL(url).pathname);
  const edges = raw.filter((e) => inDist(e.parent) && inDist(e.url)).map((e) => [name(e.parent), name(e.url)]);
  const unique = [...new Map(edges.map((e) => [e.join(' -> '), e])).values()];
  const rooms = new Set(unique.flat());
  const climbs = unique.filter(([from, to]) => layerOf(to) < layerOf(from));
  const cyclic = modulesInCycles(rooms, unique);
  console.log(`modules entered: ${rooms.size} in ${new Set([...rooms].map((r) => r.split('/').slice(0, -1).join('/') || '.')).size} directories`);
  console.log(`imports up a layer: ${climbs.length}${climbs.length ? `\n  ${climbs.map((e) => e.join(' -> ')).join('\n  ')}` : ''}`);
  console.log(`modules in import cycles: ${cyclic.length}${cyclic.length ? `\n  ${cyclic.join('\n  ')}` : ''}`);
  if (process.argv.includes('--list')) console.log([...rooms].sort().join('\n'));
}

/** Tarjan's strongly connected components; a module is in a cycle when its component has more than one. */
function modulesInCycles(nodes, edges) {
  const next = new Map([...nodes].map((n) => [n, []]));
  for (const [a, b] of edges) next.get(a).push(b);
  let index = 0;
  const meta = new Map();
  const stack = [];
  const found = [];
  const visit = (v) => {
    meta.set(v, { index, low: index++, on: true });
    stack.push(v);
    for (const w of next.get(v)) {
      if (!meta.has(w)) {
        visit(w);
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
      } else if (meta.get(w).on) meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
    }
    if (meta.get(v).low === meta.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        meta.get(w).on = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(...component.sort());
    }
  };
  for (const n of nodes) if (!meta.has(n)) visit(n);
  return found;
}

function reportCalls(dir) {
  const inDist = (url) => url?.startsWith(`file://${dist}/`);
  const name = (url) => relative(dist, new URL(url).pathname);
  const edges = new Set();
  const modules = new Set();
  for (const file of readdirSync(dir)) {
    const { nodes } = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const byId = new Map(nodes.map((n) => [n.id, n]));
    for (const parent of nodes) {
      if (!inDist(parent.callFrame.url)) continue;
      modules.add(name(parent.callFrame.url));
      for (const childId of parent.children ?? []) {
        const child = byId.get(childId);
        if (!inDist(child?.callFrame.url)) continue;
        const from = name(parent.callFrame.url);
        const to = name(child.callFrame.url);
        if (from !== to) edges.add(`${from}:${parent.callFrame.functionName || '(anonymous)'} -> ${to}:${child.callFrame.functionName || '(anonymous)'}`);
      }
    }
  }
  const pairs = [...edges].map((e) => e.split(' -> ').map((end) => end.split(':')[0]));
  const climbs = pairs.filter(([from, to]) => callLayerOf(to) < callLayerOf(from));
  const commandsToClean = pairs.filter(([from, to]) => from.startsWith('commands/') && to.startsWith('clean/'));
  const cleanToCommands = pairs.filter(([from, to]) => from.startsWith('clean/') && to.startsWith('commands/'));
  console.log(`modules whose functions ran: ${modules.size}`);
  console.log(`calls back up a layer: ${climbs.length}`);
  console.log(`calls commands/ -> clean/: ${commandsToClean.length}; clean/ -> commands/: ${cleanToCommands.length}`);
  if (process.argv.includes('--list')) console.log([...edges].sort().join('\n'));
}
