// The rows of a run on their way to the program iterating it, through an object-mode stream: a slow reader holds the
// write pass back instead of filling memory; rows nobody iterates (only `result` was asked for) are dropped.
import { Readable } from 'node:stream';
import type { ResultRow } from './types.js';

/** Rows held for the reader before the write pass waits for it. */
const HIGH_WATER = 256;

export class RowQueue {
  private room?: () => void;
  private readonly stream = new Readable({ objectMode: true, highWaterMark: HIGH_WATER, read: () => this.makeRoom() });
  private readonly reader = this.stream[Symbol.asyncIterator]();
  private failure?: { error: unknown };
  private iterating = false;
  private resultAsked = false;
  private dropping?: boolean;

  readonly receive = (row: ResultRow): Promise<void> | undefined => {
    this.dropping ??= this.resultAsked && !this.iterating;
    if (this.dropping || this.stream.destroyed || this.stream.push(row)) return undefined;
    return new Promise((resolve) => (this.room = resolve));
  };

  askResult(): void {
    this.resultAsked = true;
  }

  /** The run ended: the rows held are still read, then `failure`, if it failed, ends the loop over them. */
  end(failure?: { error: unknown }): void {
    this.failure = failure;
    if (!this.stream.destroyed) this.stream.push(null);
  }

  /** The reader went away: the rows still coming are dropped and the write pass is not held back. */
  async close(): Promise<void> {
    await this.reader.return?.();
    this.makeRoom();
  }

  async next(): Promise<IteratorResult<ResultRow>> {
    this.iterating = true;
    if (this.dropping)
      throw new TypeError("this run's rows were dropped: iterate the run before awaiting its result, or give `output`");
    const step = await this.reader.next();
    if (!step.done || this.failure === undefined) return step;
    const { error } = this.failure;
    this.failure = undefined;
    throw error;
  }

  private makeRoom(): void {
    const room = this.room;
    this.room = undefined;
    room?.();
  }
}
