// Which process events stop a run, on Linux and on Windows. The target is an event emitter standing in for the
// process object's events (a real signal cannot be sent to the test's own worker without ending it).
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ProcessSignals } from '../../src/io/signals.js';

function processLike(): NodeJS.Process {
  return new EventEmitter() as unknown as NodeJS.Process;
}

describe('ProcessSignals', () => {
  it('on Linux: SIGINT and SIGTERM, nothing else', () => {
    const target = processLike();
    const signals = new ProcessSignals(target, 'linux');
    expect(target.eventNames().sort()).toEqual(['SIGINT', 'SIGTERM']);
    target.emit('SIGTERM');
    expect(signals.stop.aborted).toBe(true);
    expect(signals.exitCode).toBe(143);
    signals.release();
    expect(target.eventNames()).toEqual([]);
  });

  it('on Windows: Ctrl-Break stops as Ctrl-C does (130), a second one abandons what is in flight', () => {
    const target = processLike();
    const signals = new ProcessSignals(target, 'win32');
    expect(target.eventNames().sort()).toEqual(['SIGBREAK', 'SIGHUP', 'SIGINT', 'SIGTERM']);
    target.emit('SIGBREAK');
    expect(signals.received).toBe('SIGINT');
    expect(signals.exitCode).toBe(130);
    expect(signals.abort.aborted).toBe(false);
    target.emit('SIGBREAK');
    expect(signals.abort.aborted).toBe(true);
    // After the second, the defaults come back.
    expect(target.eventNames()).toEqual([]);
  });

  it('on Windows: a closed console window (SIGHUP) stops the run cleanly, as SIGTERM does elsewhere', () => {
    const target = processLike();
    const signals = new ProcessSignals(target, 'win32');
    target.emit('SIGHUP');
    expect(signals.stop.aborted).toBe(true);
    expect(signals.exitCode).toBe(143);
    signals.release();
  });
});
