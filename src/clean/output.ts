import { once } from 'node:events';
import { chmodSync, copyFileSync, createWriteStream, unlinkSync, type WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { replaceWith, temporaryPath } from '../atomic-write.js';
import { CliError, ExitCode } from '../errors.js';
import type { InputLayout } from './input/index.js';
import type { OutputTarget } from './output-target.js';
import { EXTRA_COLUMNS, type ExtraColumn, RESULT_COLUMNS, type Verdict, verdictCells, verdictFields } from './verdict.js';

export const OUTPUT_FORMATS = ['csv', 'json', 'ndjson'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Buffers text and writes it in large chunks, waiting when the destination asks us to. */
export class ChunkedWriter {
  private buffer = '';
  /** A write that failed after it was accepted (a full disk, /dev/full): thrown at the next flush. */
  private failure: Error | undefined;

  constructor(private readonly stream: Writable) {
    stream.on('error', (error) => (this.failure ??= error));
  }

  async write(text: string): Promise<void> {
    this.buffer += text;
    if (this.buffer.length >= 1 << 16) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.buffer === '') return;
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
    if (this.failure) throw this.failure;
  }
}

const WRITE_FAILURES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is too large for the file system',
  EIO: 'an input/output error',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/** An output that could not be written: one line naming it, never a stack trace. */
export class OutputError extends CliError {
  constructor(given: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    const reason = (code && WRITE_FAILURES[code]) ?? (cause instanceof Error ? cause.message : String(cause));
    super(
      `cannot write ${given}: ${reason}${code && WRITE_FAILURES[code] ? ` (${code})` : ''}`,
      ExitCode.error,
      'nothing was left half-written; free the space or choose another place, then run the same command again (with --resume when it used the service: nothing is paid twice)',
    );
  }
}

/**
 * An output written under a temporary name beside its target and renamed into place only when complete,
 * keeping the mode of the file it replaces (and, with `backup`, a copy of that file first). A device or a FIFO
 * is written directly: there is nothing to replace.
 */
export class AtomicFile {
  readonly stream: WriteStream;
  private readonly tmp?: string;

  constructor(
    readonly target: OutputTarget,
    private readonly backup?: string,
  ) {
    if (target.kind === 'direct') {
      this.stream = createWriteStream(target.path, { flags: 'w' });
      return;
    }
    this.tmp = temporaryPath(target.path);
    // A new file follows the umask; a replaced one gets its old mode at commit.
    this.stream = createWriteStream(this.tmp, { flags: 'wx', mode: target.mode === undefined ? 0o666 : 0o600 });
  }

  /** Resolves once the file can be written (rejects with the open error, e.g. a missing directory). */
  async ready(): Promise<void> {
    if (this.stream.pending) await once(this.stream, 'open');
  }

  async commit(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
    if (!this.tmp) return;
    if (this.target.mode !== undefined) chmodSync(this.tmp, this.target.mode);
    if (this.backup) copyFileSync(this.target.path, this.backup);
    replaceWith(this.tmp, this.target.path);
  }

  abort(): void {
    this.stream.destroy();
    if (!this.tmp) return;
    try {
      unlinkSync(this.tmp);
    } catch {
      /* never created */
    }
  }
}

/** A small output (a summary, a report) written whole and atomically, like the rows. */
export async function writeWhole(target: OutputTarget, text: string): Promise<void> {
  const file = new AtomicFile(target);
  const writer = new ChunkedWriter(file.stream);
  try {
    await file.ready();
    await writer.write(text);
    await writer.flush();
    await file.commit();
  } catch (error) {
    file.abort();
    throw new OutputError(target.given, error);
  }
}

/** Renders rows of one output (the main one or --rejects) in the chosen format. */
export class RowFormatter {
  private readonly delimiter: string;
  private readonly eol: string;
  /** The input columns that go out (all but the results of an earlier run), and their JSON keys. */
  private readonly columns: number[];
  private readonly names: string[];
  /** JSON keys of the fields a longer row has beyond the header, made as such rows come. */
  private readonly extraNames: string[] = [];
  /** The input holds an earlier run's results: its rows are rebuilt without them, so cannot go out byte for byte. */
  private readonly rebuild: boolean;
  private first = true;

  constructor(
    private readonly layout: InputLayout,
    private readonly format: OutputFormat,
    private readonly extras: readonly ExtraColumn[] = [],
  ) {
    // A list of bare addresses becomes a CSV with an `email` column.
    this.delimiter = layout.format === 'lines' ? ',' : layout.delimiter;
    this.eol = layout.lineEnding;
    const ours = new Set(layout.ownColumns);
    const names = jsonNames(layout);
    this.columns = names.flatMap((_, i) => (ours.has(i) ? [] : [i]));
    this.names = this.columns.map((i) => names[i]!);
    this.rebuild = ours.size > 0;
  }

  start(): string {
    if (this.format === 'json') return '[';
    if (this.format === 'ndjson') return '';
    const results = [...RESULT_COLUMNS, ...this.extras].join(this.delimiter);
    if (this.layout.format === 'lines') return `email${this.delimiter}${results}${this.eol}`;
    // Excel's `sep=` line stays first, so Excel still splits the columns as before.
    const prefix = `${writesBom(this.layout) ? '\uFEFF' : ''}${this.layout.sepLine !== undefined ? this.layout.sepLine + this.eol : ''}`;
    if (!this.layout.hasHeader) return prefix;
    const header = this.rebuild ? this.serialise(this.layout.header) : (this.layout.headerRaw ?? '');
    return `${prefix}${header}${this.delimiter}${results}${this.eol}`;
  }

  /** One row; `checked` is the address taken from inside its cell, if it was. */
  row(raw: string, fields: string[], verdict: Verdict, checked?: string): string {
    if (this.format === 'csv') return `${this.original(raw, fields)}${this.delimiter}${this.resultCells(verdict, checked)}${this.eol}`;
    const object: Record<string, unknown> = {};
    // A field the row does not reach is missing, not empty.
    this.columns.forEach((column, i) => {
      object[this.names[i]!] = fields[column] ?? null;
    });
    for (let i = this.layout.columnCount; i < fields.length; i++) object[this.extraName(i)] = fields[i];
    Object.assign(object, verdictFields(verdict, this.extras, { checked }));
    const line = JSON.stringify(object);
    if (this.format === 'ndjson') return `${line}\n`;
    const prefix = this.first ? '\n' : ',\n';
    this.first = false;
    return prefix + line;
  }

  /**
   * The row as it came in. A shorter row gets empty fields up to the header's width, so its results stand under
   * their names; a longer one keeps its extra fields, and its results follow them.
   */
  private original(raw: string, fields: string[]): string {
    if (this.layout.format === 'lines') return quote(raw, this.delimiter);
    if (this.rebuild) {
      const extra = fields.slice(this.layout.columnCount).map((f) => quote(f, this.delimiter));
      return [this.serialise(fields), ...extra].join(this.delimiter);
    }
    const missing = this.layout.columnCount - fields.length;
    return missing > 0 ? raw + this.delimiter.repeat(missing) : raw;
  }

  private resultCells(verdict: Verdict, checked: string | undefined): string {
    return verdictCells(verdict, this.extras, { checked })
      .map((c) => quote(c, this.delimiter))
      .join(this.delimiter);
  }

  /** `column_N` for the Nth field, as in a file without a header; `_2`, `_3` when the header has that name. */
  private extraName(index: number): string {
    let name = this.extraNames[index];
    if (name === undefined) {
      const base = `column_${index + 1}`;
      name = base;
      for (let n = 2; this.names.includes(name) || RESULT_NAMES.has(name); n++) name = `${base}_${n}`;
      this.extraNames[index] = name;
    }
    return name;
  }

  private serialise(fields: readonly string[]): string {
    return this.columns.map((i) => quote(fields[i] ?? '', this.delimiter)).join(this.delimiter);
  }

  end(): string {
    if (this.format === 'json') return this.first ? ']\n' : '\n]\n';
    return '';
  }
}

const RESULT_NAMES = new Set<string>([...RESULT_COLUMNS, ...Object.keys(EXTRA_COLUMNS)]);

/** JSON keys: the header names (made unique), `email` for a bare list, else column_1, column_2, ... */
function jsonNames(layout: InputLayout): string[] {
  if (layout.format === 'lines') return ['email'];
  const base = layout.hasHeader ? layout.header : Array.from({ length: layout.columnCount }, (_, i) => `column_${i + 1}`);
  const seen = new Map<string, number>();
  return base.map((name, i) => {
    const clean = name.trim() || `column_${i + 1}`;
    const count = (seen.get(clean) ?? 0) + 1;
    seen.set(clean, count);
    return count === 1 ? clean : `${clean}_${count}`;
  });
}

// Per cell this runs millions of times; csv-stringify's per-call setup would cost more than the rule itself.
function quote(value: string, delimiter: string): string {
  if (value.includes(delimiter) || value.includes('"') || value.includes('\n') || value.includes('\r')) {
    return `"${value.replace(/"/g, '""')}"`;
  }
  return value;
}

/**
 * The CSV output is UTF-8. It starts with a BOM when the input had one, or was in another encoding: such a file
 * came from Excel, which reads UTF-8 without a BOM as the system's code page (Zoë becomes ZoÃ«).
 */
function writesBom(layout: InputLayout): boolean {
  return layout.bom || layout.encoding !== 'utf-8';
}
