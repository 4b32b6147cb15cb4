import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type {
  InputLayout,
  InputRecord,
  OpenInputOptions,
  ReadOptions,
} from '../../../../src/clean/scan/input/index.js';
import { openInput, readRecordBatches } from '../../../../src/clean/scan/input/index.js';

export const FIXTURES = fileURLToPath(new URL('../../../../fixtures/clean/', import.meta.url));
export const fixture = (name: string): string => join(FIXTURES, name);

/** A temporary directory removed by the returned function. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'mailclean-input-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes `content` to `name` in `dir` and returns its path. */
export function put(dir: string, name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const noStdin = (): NodeJS.ReadableStream => {
  const s = new PassThrough();
  s.end();
  return s;
};

export function open(path: string, extra: Partial<OpenInputOptions> = {}): Promise<InputLayout> {
  return openInput({ path, stdin: noStdin(), spoolDir: join(tmpdir(), 'mailclean-input-spool'), ...extra });
}

/** The records one at a time, as the passes read them in batches. */
export async function* readRecords(layout: InputLayout, options?: ReadOptions): AsyncGenerator<InputRecord> {
  for await (const batch of readRecordBatches(layout, options)) yield* batch;
}

export async function collect(layout: InputLayout, options?: ReadOptions): Promise<InputRecord[]> {
  const out: InputRecord[] = [];
  for await (const r of readRecords(layout, options)) out.push(r);
  return out;
}

/** BOM + header + records joined with the detected line ending (what a writer re-emitting rows produces). */
export function rebuild(layout: InputLayout, records: readonly InputRecord[]): string {
  const lines = [...(layout.headerRaw !== undefined ? [layout.headerRaw] : []), ...records.map((r) => r.raw)];
  return (
    (layout.bom ? '\ufeff' : '') + lines.join(layout.lineEnding) + (layout.endsWithNewline ? layout.lineEnding : '')
  );
}

/** The same, using each record's own terminator. */
export function rebuildWithEol(layout: InputLayout, records: readonly InputRecord[]): string {
  let out = layout.bom ? '\ufeff' : '';
  if (layout.headerRaw !== undefined) out += layout.headerRaw + layout.lineEnding;
  for (const r of records) out += r.raw + r.eol;
  return out;
}

/** `text` without its whitespace-only lines (the fixtures have none inside quoted fields). */
export function withoutBlankLines(text: string, lineEnding: string): string {
  const parts = text.split(lineEnding);
  const endsWithNewline = text.endsWith(lineEnding);
  if (endsWithNewline) parts.pop();
  return (
    parts.filter((p) => p.replace(/^\ufeff/, '').trim() !== '').join(lineEnding) + (endsWithNewline ? lineEnding : '')
  );
}

/** The UsageError an async call fails with (the test fails if it resolves or throws something else). */
export async function usageError(p: Promise<unknown>): Promise<{ message: string; hint?: string; exitCode: number }> {
  try {
    await p;
  } catch (err) {
    const e = err as { name?: string; message: string; hint?: string; exitCode: number };
    if (e.name !== 'UsageError') throw err;
    return e;
  }
  throw new Error('expected a UsageError, got success');
}
