// The shared strings table as UTF-8 in large buffers, two numbers a string: cheaper than a string each, and bounded.
import { UsageError } from '../../../../errors.js';
import type { WorkbookPackage } from './package.js';
import { CellText } from './text.js';

export const MAX_SHARED_BYTES = 96 << 20;
/** Strings kept in all (8 bytes each). */
export const MAX_SHARED_STRINGS = 8 << 20;
const CHUNK = 4 << 20;
const BLOCK = 1 << 16;

export class SharedStrings {
  private readonly chunks: Buffer[] = [];
  private used = CHUNK;
  private total = 0;
  /** Per block of strings: each one's chunk offset (chunk index * CHUNK + offset) and byte length. */
  private readonly starts: Uint32Array[] = [];
  private readonly lengths: Uint32Array[] = [];
  count = 0;

  constructor(private readonly displayName: string) {}

  add(text: string): void {
    const bytes = Buffer.byteLength(text);
    if (this.count >= MAX_SHARED_STRINGS || this.total + bytes > MAX_SHARED_BYTES) {
      throw new UsageError(
        `${this.displayName}: its shared strings hold more than ${this.count >= MAX_SHARED_STRINGS ? '8 million strings' : '96 MB of text'}`,
        'a list this large reads faster as CSV: save the sheet as "CSV UTF-8" and clean that',
      );
    }
    if (this.used + bytes > CHUNK) {
      this.chunks.push(Buffer.allocUnsafeSlow(Math.max(CHUNK, bytes)));
      this.used = 0;
    }
    const block = this.count >>> 16;
    if (block === this.starts.length) {
      this.starts.push(new Uint32Array(BLOCK));
      this.lengths.push(new Uint32Array(BLOCK));
    }
    const chunk = this.chunks.length - 1;
    this.chunks[chunk]!.write(text, this.used);
    this.starts[block]![this.count & (BLOCK - 1)] = chunk * CHUNK + this.used;
    this.lengths[block]![this.count & (BLOCK - 1)] = bytes;
    this.used += bytes;
    this.total += bytes;
    this.count++;
  }

  get(index: number): string | undefined {
    if (!(index >= 0 && index < this.count)) return undefined;
    const start = this.starts[index >>> 16]![index & (BLOCK - 1)]!;
    const length = this.lengths[index >>> 16]![index & (BLOCK - 1)]!;
    const chunk = this.chunks[Math.floor(start / CHUNK)]!;
    const at = start % CHUNK;
    return chunk.toString('utf8', at, at + length);
  }
}

export async function readSharedStrings(
  pkg: WorkbookPackage,
  path: string | undefined,
  signal?: AbortSignal,
): Promise<SharedStrings> {
  const strings = new SharedStrings(pkg.displayName);
  if (path === undefined || !pkg.has(path)) return strings;
  const text = new CellText(`${pkg.displayName}: shared string`);
  let inItem = false;
  let phonetic = 0;
  await pkg.parse(
    path,
    {
      open(name) {
        if (name === 'si') {
          inItem = true;
          text.reset();
        } else if (name === 'rPh') phonetic++;
        else if (name === 't' && inItem && phonetic === 0) text.collecting = true;
      },
      close(name) {
        if (name === 't') text.collecting = false;
        else if (name === 'rPh') phonetic--;
        else if (name === 'si') {
          inItem = false;
          strings.add(text.value());
        }
      },
      text: (t) => text.add(t),
    },
    signal,
  );
  return strings;
}
