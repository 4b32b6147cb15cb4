// A workbook's zip (yauzl), read through its central directory so the small parts come before the sheet.
import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import { text as wholeText } from 'node:stream/consumers';
import yauzl from 'yauzl';
import { messageOf, UsageError } from '../../../../errors.js';
import { attribute, parseXml } from './xml.js';

export class WorkbookPackage {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly entries: Map<string, yauzl.Entry>,
    readonly displayName: string,
  ) {}

  static async open(file: string, displayName: string): Promise<WorkbookPackage> {
    let zip: yauzl.ZipFile | undefined;
    try {
      zip = await yauzl.openPromise(file, { autoClose: false, strictFileNames: false });
      const entries = new Map<string, yauzl.Entry>();
      // Names are compared without case: writers disagree on it, and no two parts differ only by it.
      for await (const entry of zip.eachEntry()) entries.set(entry.fileName.toLowerCase(), entry);
      return new WorkbookPackage(zip, entries, displayName);
    } catch (error) {
      zip?.close();
      throw damaged(displayName, error);
    }
  }

  has(path: string): boolean {
    return this.entries.has(path.toLowerCase());
  }

  parts(): string[] {
    return [...this.entries.values()].map((e) => e.fileName).filter((name) => !name.endsWith('/'));
  }

  /** A part's text, whole: for the small parts a workbook written over this one edits (styles, content types). */
  async text(path: string): Promise<string> {
    return wholeText(await this.stream(path));
  }

  /** A part's bytes as they inflate; the zip's sizes are checked as it streams (a lying entry fails). */
  async stream(path: string): Promise<Readable> {
    const entry = this.entries.get(path.toLowerCase());
    if (!entry) throw new UsageError(`${this.displayName}: not a workbook (no part ${path})`);
    try {
      return await this.zip.openReadStreamPromise(entry);
    } catch (error) {
      throw damaged(this.displayName, error);
    }
  }

  async parse(path: string, handlers: Parameters<typeof parseXml>[1], signal?: AbortSignal): Promise<void> {
    const stream = await this.stream(path);
    stream.on('error', () => undefined); // reported through the iteration in parseXml
    try {
      await parseXml(stream, handlers, `${this.displayName}: ${path}`, signal);
    } catch (error) {
      throw error instanceof UsageError || signal?.aborted ? error : damaged(this.displayName, error);
    }
  }

  close(): void {
    this.zip.close();
  }
}

export interface Relationship {
  type: string;
  path: string;
}

export async function readRelationships(pkg: WorkbookPackage, part: string): Promise<Map<string, Relationship>> {
  const dir = posix.dirname(part);
  const relsPath = relsOf(part);
  const rels = new Map<string, Relationship>();
  if (!pkg.has(relsPath)) return rels;
  await pkg.parse(relsPath, {
    open(name, attributes) {
      const id = attribute(attributes, 'Id');
      const target = attribute(attributes, 'Target');
      if (name !== 'Relationship' || id === undefined || target === undefined) return;
      if (attribute(attributes, 'TargetMode') === 'External') return;
      if (rels.size >= 100_000) throw new UsageError(`${pkg.displayName}: ${relsPath} lists too many parts`);
      const path = target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(dir, target));
      rels.set(id, { type: attribute(attributes, 'Type') ?? '', path });
    },
  });
  return rels;
}

export function relsOf(part: string): string {
  return posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);
}

/** The first relationship whose type ends with `/kind` (transitional and strict OOXML differ only before it). */
export function relationshipOf(rels: Map<string, Relationship>, kind: string): Relationship | undefined {
  for (const rel of rels.values()) if (rel.type.endsWith(`/${kind}`)) return rel;
  return undefined;
}

function damaged(displayName: string, error: unknown): UsageError {
  if (error instanceof UsageError) return error;
  return new UsageError(
    `${displayName}: cannot read the workbook (${messageOf(error)})`,
    'the file may be damaged or not a workbook: open it in Excel and save it again as .xlsx',
  );
}
