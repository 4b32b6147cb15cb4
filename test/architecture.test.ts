// The shape of src/ that docs/architecture.md promises: small files and functions, and libraries that never
// reach up into the commands, the factory or the terminal.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');
// The limits are 300 lines a file and 60 a function; these keep room below them, so a change has space to land.
const MAX_FILE_LINES = 270;
const MAX_FUNCTION_LINES = 54;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const files = sources(SRC).map((path) => ({ path, name: relative(SRC, path), text: readFileSync(path, 'utf8') }));

/** Functions longer than the limit. A function that is mostly one data literal (a fixture's shape) is data. */
function longFunctions(name: string, text: string): string[] {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const lines = lineOf(node.getEnd()) - lineOf(node.getStart()) + 1;
      if (lines > MAX_FUNCTION_LINES && !isMostlyData(node.body, lineOf, lines)) {
        found.push(
          `${name}:${lineOf(node.getStart()) + 1} ${(node as ts.FunctionLikeDeclaration).name?.getText() ?? '(anonymous)'} (${lines} lines)`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isMostlyData(body: ts.Node, lineOf: (pos: number) => number, lines: number): boolean {
  let dataLines = 0;
  const visit = (node: ts.Node): void => {
    if (
      ts.isObjectLiteralExpression(node) ||
      ts.isArrayLiteralExpression(node) ||
      ts.isTemplateExpression(node) ||
      ts.isNoSubstitutionTemplateLiteral(node)
    ) {
      const span = lineOf(node.getEnd()) - lineOf(node.getStart()) + 1;
      if (span > 5) {
        dataLines += span;
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  return dataLines > lines / 2;
}

function importsOf(text: string): string[] {
  return [...text.matchAll(/^(?:import|export)[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/gm)].map(
    (m) => m[1] ?? m[2]!,
  );
}

/** Imports that load a module when they run (static or dynamic), type-only imports aside. */
function runtimeImportsOf(name: string, text: string): string[] {
  const specs = [...text.matchAll(/^(?:import|export)(?!\s+type\b)[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/gm)].map(
    (m) => m[1] ?? m[2]!,
  );
  return specs
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => relative(SRC, join(SRC, name, '..', spec)).replace(/\.js$/, '.ts'));
}

/** Modules in an import cycle (Tarjan's strongly connected components of more than one module). */
function importCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const seen = new Map<string, { index: number; low: number; onStack: boolean }>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    const mine = { index, low: index++, onStack: true };
    seen.set(v, mine);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      const theirs = seen.get(w);
      if (!theirs) {
        visit(w);
        mine.low = Math.min(mine.low, seen.get(w)!.low);
      } else if (theirs.onStack) mine.low = Math.min(mine.low, theirs.index);
    }
    if (mine.low !== mine.index) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      seen.get(w)!.onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!seen.has(v)) visit(v);
  return cycles;
}

describe('the shape of src/', () => {
  it('no module reaches itself through the imports that run (static or dynamic)', () => {
    const graph = new Map(files.map((f) => [f.name, runtimeImportsOf(f.name, f.text)]));
    expect(importCycles(graph)).toEqual([]);
  });

  it(`no file is longer than ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .filter((f) => f.text.split('\n').length > MAX_FILE_LINES)
      .map((f) => `${f.name} (${f.text.split('\n').length} lines)`);
    expect(long).toEqual([]);
  });

  it(`no function is longer than ${MAX_FUNCTION_LINES} lines, data literals aside`, () => {
    expect(files.flatMap((f) => longFunctions(f.name, f.text))).toEqual([]);
  });

  it('src/clean, src/account, src/library and src/review are libraries: nothing from src/commands, the factory or src/io', () => {
    const layered = files.filter((f) => /^(clean|account|library|review)\//.test(f.name));
    expect(layered.length).toBeGreaterThan(10);
    const offending = layered.flatMap((f) =>
      importsOf(f.text)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => relative(SRC, join(SRC, f.name, '..', spec)))
        .filter((target) => /^(commands|io)\//.test(target) || target === 'factory.js')
        .map((target) => `${f.name} -> ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('nothing below main.ts imports a command or calls process.exit', () => {
    // executable.ts is above main.ts: the single executable's entry, as bin/mailclean.js is the package's.
    const offending = files
      .filter((f) => f.name !== 'main.ts' && f.name !== 'executable.ts' && !f.name.startsWith('commands/'))
      .flatMap((f) => [
        ...importsOf(f.text)
          .filter(
            (spec) => spec.startsWith('.') && relative(SRC, join(SRC, f.name, '..', spec)).startsWith('commands/'),
          )
          .map((spec) => `${f.name} imports ${spec}`),
        ...(/process\.exit\(/.test(f.text) ? [`${f.name} calls process.exit`] : []),
      ]);
    expect(offending).toEqual([]);
  });

  it('outside src/verify, the engine is reached through src/verify/index.ts only (the syntax check alone through syntax.ts, its lists through lists.ts, typo suggestions through typo.ts)', () => {
    const offending = files
      .filter((f) => !f.name.startsWith('verify/'))
      .flatMap((f) =>
        importsOf(f.text)
          .filter((spec) => spec.startsWith('.'))
          .map((spec) => relative(SRC, join(SRC, f.name, '..', spec)))
          .filter(
            (target) =>
              target.startsWith('verify/') &&
              !['verify/index.js', 'verify/syntax.js', 'verify/lists.js', 'verify/typo.js'].includes(target),
          )
          .map((target) => `${f.name} -> ${target}`),
      );
    expect(offending).toEqual([]);
  });

  it('the account-state port leaks no store: only src/clean/state/ reaches an adapter, and adapters not each other', () => {
    const adapters = ['clean/state/disk/', 'clean/state/redis/'];
    const offending = files.flatMap((f) =>
      importsOf(f.text)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => relative(SRC, join(SRC, f.name, '..', spec)))
        .filter((target) => {
          const adapter = adapters.find((a) => target.startsWith(a));
          if (!adapter || f.name.startsWith(adapter)) return false;
          // The port names what every store promises; open-state.ts is the one place that chooses a store.
          return f.name !== 'clean/state/open-state.ts';
        })
        .map((target) => `${f.name} -> ${target}`),
    );
    expect(offending).toEqual([]);
  });
});
