// The walk of a service clean: which modules of dist/ a signed-in `clean` against the built-in sandbox loads
// ("rooms entered"), and how often an import goes back up the layers or round a cycle ("climbs back").
// Usage: npm run build && node tools/walk.mjs [--list]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

const { startSandbox } = await import(join(dist, 'sandbox/server.js'));
const sandbox = await startSandbox({});
try {
  const urls = ['--api-url', sandbox.url, '--clean-url', sandbox.url];
  const reg = await cli([...urls, 'register', '--service', 'clean', '--name', 'Walk', '--email', 'walk@example.com', '--password-stdin'], { input: 'a long password' });
  if (reg.status !== 0) throw new Error(`register failed: ${reg.stderr}`);
  const log = join(home, 'edges.ndjson');
  const run = await cli(['clean', join(root, 'fixtures/clean/mailchimp.csv'), '-o', join(home, 'out.csv'), '--yes'], {
    node: ['--import', join(root, 'tools/walk-hook.mjs')],
    env: { MAILCLEAN_WALK_LOG: log },
  });
  if (run.status !== 0) throw new Error(`clean exited ${run.status}: ${run.stderr}`);
  report(readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line)));
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
