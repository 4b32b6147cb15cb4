// The one place SIGINT and SIGTERM are handled: the first asks the work to stop cleanly, a second abandons what is in
// flight. The process then ends through the normal path with 128 + the signal's number.

export type Signal = 'SIGINT' | 'SIGTERM';

const NUMBERS: Record<Signal, number> = { SIGINT: 2, SIGTERM: 15 };

export class Signals {
  private first?: Signal;
  private count = 0;
  private readonly stopController = new AbortController();
  private readonly abortController = new AbortController();

  /** Aborted by the first signal: stop starting work, finish and save what is in flight. */
  get stop(): AbortSignal {
    this.claim();
    return this.stopController.signal;
  }

  /** Aborted by the second signal: abandon what is in flight too. */
  get abort(): AbortSignal {
    this.claim();
    return this.abortController.signal;
  }

  get received(): Signal | undefined {
    return this.first;
  }

  get exitCode(): number {
    return 128 + NUMBERS[this.first ?? 'SIGINT'];
  }

  deliver(signal: Signal): void {
    this.count++;
    this.first ??= signal;
    if (this.count === 1) this.stopController.abort(new Interrupted(signal));
    else this.abortController.abort(new Interrupted(signal));
  }

  /** Removes other listeners of our signals; a no-op unless bound to the process. */
  claim(): void {}
}

export class Interrupted extends Error {
  constructor(readonly signal: Signal) {
    super(`interrupted by ${signal}`);
  }

  /** What work stopped by it ends with (the library API reads this of a stop signal's reason). */
  get exitCode(): number {
    return 128 + NUMBERS[this.signal];
  }
}

/** Windows has no SIGTERM: Ctrl-Break (SIGBREAK) is taken as Ctrl-C, closing the console (SIGHUP) as a stop. */
const WINDOWS_ONLY: Partial<Record<NodeJS.Signals, Signal>> = { SIGBREAK: 'SIGINT', SIGHUP: 'SIGTERM' };

/**
 * Bound to the process, and its only listener: libraries that hook signals on import (`when-exit`) re-raise them,
 * which would look like a second Ctrl-C. `claim()` removes them; their clean-up still runs at `exit`.
 */
export class ProcessSignals extends Signals {
  private readonly listeners = new Map<NodeJS.Signals, () => void>();

  constructor(
    private readonly target: NodeJS.Process = process,
    platform: NodeJS.Platform = process.platform,
  ) {
    super();
    const caught: [NodeJS.Signals, Signal][] = (Object.keys(NUMBERS) as Signal[]).map((signal) => [signal, signal]);
    if (platform === 'win32') caught.push(...(Object.entries(WINDOWS_ONLY) as [NodeJS.Signals, Signal][]));
    for (const [received, meaning] of caught) {
      const listener = () => this.onSignal(meaning);
      this.listeners.set(received, listener);
      target.on(received, listener);
    }
  }

  private onSignal(signal: Signal): void {
    this.deliver(signal);
    // After the second, a third signal ends the process at once, should the clean stop itself be stuck.
    if (this.abort.aborted) this.release();
  }

  override claim(): void {
    for (const [signal, ours] of this.listeners) {
      for (const other of this.target.listeners(signal))
        if (other !== ours) this.target.removeListener(signal, other as () => void);
    }
  }

  release(): void {
    for (const [signal, ours] of this.listeners) this.target.removeListener(signal, ours);
  }
}
