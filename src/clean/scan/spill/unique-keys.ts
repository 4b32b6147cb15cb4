import { ByteLog } from './byte-log.js';
import { hashBytes } from './hash-bytes.js';
import { eachKeyIn, LENGTH_BYTES, recordAfter } from './key-records.js';
import { Paged } from './paged.js';

/** Past this share of used slots the table grows, so that probes stay short. */
const MAX_LOAD = 0.7;
/** Small tables grow eightfold (rebuilt rarely); large ones double, never jumping far past the need. */
const EIGHTFOLD_UNTIL_BITS = 24;
/** One ordinal in this many has its key's offset kept; the others are found by stepping from it. */
const ANCHOR_BITS = 3;
const INITIAL_BITS = 12;
const MAX_BITS = 30;

export interface UniqueKeysOptions {
  /** Bytes of keys kept in memory before the older ones spill to a file in `spoolDir`. */
  budget: number;
  spoolDir: string;
  holdFromDisk?: number;
  /** The keys' local parts are in lower case (dedupeKey). */
  foldsCase?: boolean;
}

/** The list's distinct keys, numbered in order of first appearance, in a hash table over a log that spills. */
export class UniqueKeys implements Iterable<string> {
  /** A slot holds ordinal + 1 (0: free) below the top bits of the key's hash: most probes need no key bytes. */
  private readonly table = new ArrayBuffer(4 * 2 ** INITIAL_BITS, { maxByteLength: 4 * 2 ** MAX_BITS });
  private readonly slots = new Uint32Array(this.table);
  private bits = INITIAL_BITS;
  private mask = (1 << INITIAL_BITS) - 1;
  private anchors = new Paged(Float64Array);
  private indexDropped = false;
  private readonly log: ByteLog;
  private scratch = Buffer.alloc(1024);
  private lastInOrder = -1;
  private count = 0;

  readonly foldsCase: boolean;

  constructor(opts: UniqueKeysOptions) {
    this.log = new ByteLog({ ...opts, name: 'keys' });
    this.foldsCase = opts.foldsCase ?? true;
  }

  get size(): number {
    return this.count;
  }

  get spilled(): boolean {
    return this.log.spilled;
  }

  get diskReads(): number {
    return this.log.reads;
  }

  /** Adds the key if new. */
  add(key: string): number {
    this.assertIndexed();
    const length = this.encode(key);
    const hash = hashBytes(this.scratch, length);
    const found = this.find(hash, length);
    if (found >= 0) return found;
    const ordinal = this.count++;
    this.slots[-1 - found] = this.entry(hash, ordinal);
    this.append(ordinal, length);
    if (this.count > this.slots.length * MAX_LOAD) this.grow();
    return ordinal;
  }

  /** -1 when the key is not there. */
  ordinal(key: string): number {
    this.assertIndexed();
    const length = this.encode(key);
    return Math.max(this.find(hashBytes(this.scratch, length), length), -1);
  }

  /** Before lookups in no order (the cache's key order): the keys on disk are read into memory, if few enough. */
  holdDiskPart(): void {
    this.log.holdDiskPart();
  }

  /** Each key is tried first as the one after the last found: a journal's come mostly in the list's order. */
  ordinalsInOrder(bytes: Uint8Array, starts: Int32Array): Int32Array {
    this.assertIndexed();
    const found = new Int32Array(starts.length - 1).fill(-1);
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < found.length; i++) {
      const at = starts[i] as number;
      const length = (starts[i + 1] as number) - at;
      if (length === 0 || length > 0xffff) continue;
      const next = this.lastInOrder + 1;
      let ordinal = next < this.count && this.sameKey(next, length, buffer, at) ? next : -1;
      if (ordinal < 0) {
        if (length > this.scratch.length) this.scratch = Buffer.alloc(length);
        buffer.copy(this.scratch, 0, at, at + length);
        ordinal = this.find(hashBytes(this.scratch, length), length);
      }
      if (ordinal >= 0) found[i] = this.lastInOrder = ordinal;
    }
    return found;
  }

  *[Symbol.iterator](): Generator<string> {
    // A key at a time: a part's keys held at once by a reader that waits (the precheck) grew a dry run's peak.
    for (const part of this.keyParts()) {
      for (let at = 0; at + LENGTH_BYTES <= part.length; ) {
        const length = part.readUInt16LE(at);
        if (length === 0) break;
        yield part.toString('utf8', at + LENGTH_BYTES, at + LENGTH_BYTES + length);
        at += LENGTH_BYTES + length;
      }
    }
  }

  /** Each part is read with eachKeyIn before the next is asked for: parts share a buffer. */
  keyParts(): Generator<Buffer> {
    return this.log.chunksInOrder();
  }

  /** Frees the lookup structures once no key is looked up again, so that a run's peak is the scan's alone. */
  dropIndex(): void {
    this.indexDropped = true;
    this.table.resize(0);
    this.anchors = new Paged(Float64Array);
    this.log.letGo();
  }

  close(): void {
    this.log.close();
    this.table.resize(0);
    this.count = 0;
  }

  private assertIndexed(): void {
    if (this.indexDropped) throw new Error('the unique keys were asked to find a key after their index was dropped');
  }

  /** The ordinal of the key in the scratch buffer, or -1 - the free slot where it would go. */
  private find(hash: number, length: number): number {
    const tag = hash >>> this.bits;
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.slots[slot] as number;
      if (entry === 0) return -1 - slot;
      if (entry >>> this.bits !== tag) continue;
      const ordinal = (entry & this.mask) - 1;
      if (this.sameKey(ordinal, length)) return ordinal;
    }
  }

  private entry(hash: number, ordinal: number): number {
    return (((hash >>> this.bits) << this.bits) | (ordinal + 1)) >>> 0;
  }

  private encode(key: string): number {
    if (key.length * 3 > this.scratch.length) this.scratch = Buffer.alloc(key.length * 3);
    const length = this.scratch.write(key, 0, 'utf8');
    if (length === 0 || length > 0xffff) throw new RangeError(`a key of ${length} bytes cannot be kept`);
    return length;
  }

  private append(ordinal: number, length: number): void {
    const { chunk, at, offset } = this.log.reserve(LENGTH_BYTES + length);
    chunk.writeUInt16LE(length, at);
    this.scratch.copy(chunk, at + LENGTH_BYTES, 0, length);
    this.log.commit(LENGTH_BYTES + length);
    if ((ordinal & ((1 << ANCHOR_BITS) - 1)) === 0) this.anchors.set(ordinal >>> ANCHOR_BITS, offset);
  }

  /** Whether key `ordinal` is the `length` bytes of `bytes` from `start`. */
  private sameKey(ordinal: number, length: number, bytes: Buffer = this.scratch, start = 0): boolean {
    const at = recordAfter(this.log, this.anchors.get(ordinal >>> ANCHOR_BITS), ordinal & ((1 << ANCHOR_BITS) - 1));
    return this.log.uint16(at) === length && this.log.equals(at + LENGTH_BYTES, bytes, length, start);
  }

  private grow(): void {
    if (this.bits === MAX_BITS) throw new RangeError('too many distinct addresses for one list');
    this.bits = Math.min(MAX_BITS, this.bits + (this.bits < EIGHTFOLD_UNTIL_BITS ? 3 : 1));
    this.mask = (1 << this.bits) - 1;
    this.table.resize(4 * 2 ** this.bits);
    this.slots.fill(0);
    let ordinal = 0;
    const place = (bytes: Buffer, start: number, end: number) => {
      const hash = hashBytes(bytes, end - start, start);
      let slot = hash & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = this.entry(hash, ordinal++);
    };
    for (const part of this.keyParts()) eachKeyIn(part, place);
    if (ordinal !== this.count) throw new Error(`the keys' log holds ${ordinal} keys, not ${this.count}`);
  }
}
