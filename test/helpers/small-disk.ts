// A disk that fills up: a 64 KiB tmpfs mounted on a directory for the length of a test. Mounting needs root, so
// elsewhere the test is skipped and says why (a full disk cannot be made otherwise).
import { execFileSync } from 'node:child_process';

/** Runs `body` with a 64 KiB tmpfs mounted on `dir` (which must exist), unmounted after; skips the test without root. */
export async function onSmallDisk(
  ctx: { skip(note: string): void },
  dir: string,
  body: () => Promise<void>,
): Promise<void> {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    ctx.skip('skipped: mounting a tmpfs needs root (a full disk cannot be made otherwise)');
    return;
  }
  try {
    await body();
  } finally {
    execFileSync('umount', [dir], { stdio: 'ignore' });
  }
}
