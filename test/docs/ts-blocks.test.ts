// Every TypeScript block of the README and docs/ compiles under the project's strict settings: what the library's
// users copy is what its types allow (`mailclean` is the package's entry, src/library/index.ts; a block that imports
// `./x` is read as a module of src/).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const OUT = join(ROOT, '.tmp', 'doc-blocks');

function blocks(): Array<{ where: string; code: string }> {
  const files = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  return files.flatMap((file) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```/gm)].map((m, i) => ({
      where: `${file} block ${i + 1}`,
      code: m[1]!,
    })),
  );
}

describe('the TypeScript in the docs', () => {
  afterAll(() => rmSync(OUT, { recursive: true, force: true }));

  it('compiles under tsc --strict, each block as a module of its own', () => {
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    const found = blocks();
    expect(found.length).toBeGreaterThanOrEqual(2);
    const src = relative(OUT, join(ROOT, 'src'));
    const files = found.map(({ code }, i) => {
      const path = join(OUT, `block${i}.ts`);
      const local = code
        .replaceAll("from 'mailclean'", `from '${src}/library/index.js'`)
        .replaceAll("from './", `from '${src}/`);
      writeFileSync(path, `${local}\nexport {};\n`);
      return path;
    });
    const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config;
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
    // What a snippet does not use is no error of the library's.
    const program = ts.createProgram(files, { ...options, noEmit: true, noUnusedLocals: false });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && files.includes(d.file.fileName))
      .map((d) => {
        const at = found[files.indexOf(d.file!.fileName)]!.where;
        const line = d.file!.getLineAndCharacterOfPosition(d.start ?? 0).line + 1;
        return `${at}, line ${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
    expect(errors).toEqual([]);
  }, 60_000);
});
