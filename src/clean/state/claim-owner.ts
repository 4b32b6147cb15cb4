// What the claims of every adapter share: a runner's id, how long a silent runner counts as alive, its heartbeat.
import { randomBytes } from 'node:crypto';
import { ownerIsGone, processSpace } from '../../lock-files.js';

/** A runner that gave no sign of life for this long is gone. */
export const LIVENESS_MS = 15_000;
/** A claim older than this is free whatever its runner says. */
export const CLAIM_TTL_MS = 24 * 3_600_000;

/** The process space and pid come first, so that a claim of a dead process is told at once (processOfOwnerGone). */
export function newOwner(): string {
  return `${processSpace()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** Beats now, then every few seconds until the returned stop; a failed beat is tried again by the next one. */
export async function startHeartbeat(beat: () => unknown): Promise<() => void> {
  await beat();
  const timer = setInterval(async () => {
    try {
      await beat();
    } catch {
      /* a runner silent for LIVENESS_MS is taken for gone */
    }
  }, LIVENESS_MS / 3);
  timer.unref();
  return () => clearInterval(timer);
}

/** An owner in this process's space whose process is gone (a SIGKILL) loses its claims at once. */
export function processOfOwnerGone(owner: string): boolean {
  const parts = owner.split(':');
  const pid = Number(parts.at(-2));
  if (!Number.isInteger(pid) || pid <= 0 || parts.slice(0, -2).join(':') !== processSpace()) return false;
  return ownerIsGone({ pid, at: 0 });
}
