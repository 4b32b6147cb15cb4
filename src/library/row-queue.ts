// The rows of a run on their way to the program iterating it: a slow reader holds the write pass back instead of
// filling memory; rows nobody iterates (only `result` was asked for) are dropped.

import type { ResultRow } from './types.js';

/** Rows held for the reader before the write pass waits for it. */
const HIGH_WATER = 256;

type Waiter = { resolve: (result: IteratorResult<ResultRow>) => void; reject: (error: unknown) => void };

export class RowQueue {
  private readonly held: ResultRow[] = [];
  private reader?: Waiter;
  private room?: () => void;
  private state: 'open' | 'ended' | 'failed' | 'closed' = 'open';
  private failure: unknown;
  private iterating = false;
  private resultAsked = false;
  private dropping?: boolean;

  readonly receive = (row: ResultRow): Promise<void> | undefined => {
    this.dropping ??= this.resultAsked && !this.iterating;
    if (this.dropping || this.state === 'closed') return undefined;
    if (this.reader) {
      const reader = this.reader;
      this.reader = undefined;
      reader.resolve({ value: row, done: false });
      return undefined;
    }
    this.held.push(row);
    if (this.held.length < HIGH_WATER) return undefined;
    return new Promise((resolve) => (this.room = resolve));
  };

  askResult(): void {
    this.resultAsked = true;
  }

  end(): void {
    this.settle('ended');
  }

  fail(error: unknown): void {
    this.failure = error;
    this.settle('failed');
  }

  /** The reader went away: the rows still coming are dropped and the write pass is not held back. */
  close(): void {
    this.held.length = 0;
    this.settle('closed');
  }

  next(): Promise<IteratorResult<ResultRow>> {
    this.iterating = true;
    if (this.dropping) {
      return Promise.reject(
        new TypeError("this run's rows were dropped: iterate the run before awaiting its result, or give `output`"),
      );
    }
    const row = this.held.shift();
    if (row !== undefined) {
      if (this.held.length < HIGH_WATER / 2) this.makeRoom();
      return Promise.resolve({ value: row, done: false });
    }
    if (this.state === 'failed') {
      this.state = 'ended';
      return Promise.reject(this.failure);
    }
    if (this.state !== 'open') return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.reader = { resolve, reject }));
  }

  private settle(state: 'ended' | 'failed' | 'closed'): void {
    if (this.state === 'open') this.state = state;
    this.makeRoom();
    const reader = this.reader;
    this.reader = undefined;
    if (!reader) return;
    if (this.state === 'failed') {
      this.state = 'ended';
      reader.reject(this.failure);
    } else reader.resolve({ value: undefined, done: true });
  }

  private makeRoom(): void {
    const room = this.room;
    this.room = undefined;
    room?.();
  }
}
