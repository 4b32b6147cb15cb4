// A release as GitHub would hold it: the npm tarball (`npm run release`), the single executable for this machine
// (`npm run executable`) and SHA256SUMS, served on 127.0.0.1 under the path of a release download. `.ci/run` builds
// them once and names the folder in MAILCLEAN_RELEASE_DIR; without it, each test file builds its own.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION } from '../../src/version.js';
import { serve, type TestServer } from './http-server.js';

const ROOT = join(import.meta.dirname, '..', '..');
export const TARBALL = `mailclean-${VERSION}.tgz`;
export const EXECUTABLE = `mailclean-${process.platform}-${process.arch}`;
/** Where the README and the action find a release, before the test's server replaces the host. */
export const RELEASES = 'https://github.com/mailclean/mailclean/releases/download';

/** The folder holding the release's files, building what it lacks (the executable only when asked). */
export function releaseFiles(scratch: string, { executable = false } = {}): string {
  const given = process.env.MAILCLEAN_RELEASE_DIR;
  const dir = given || scratch;
  const build = (tool: string) =>
    execFileSync(process.execPath, [join(ROOT, 'tools', tool), '--out', dir], { cwd: ROOT, stdio: 'pipe' });
  if (!existsSync(join(dir, TARBALL))) build('release.mjs');
  if (executable && !existsSync(join(dir, EXECUTABLE))) build('executable.mjs');
  const sums = readdirSync(dir)
    .filter((name) => name === TARBALL || name === EXECUTABLE)
    .map(
      (name) =>
        `${createHash('sha256')
          .update(readFileSync(join(dir, name)))
          .digest('hex')}  ${name}\n`,
    );
  if (!given) writeFileSync(join(dir, 'SHA256SUMS'), sums.join(''));
  return dir;
}

/** Serves `dir` as the release v<VERSION>: `${url}/v${VERSION}/<file>` (404 for anything else). */
export async function serveRelease(dir: string): Promise<TestServer & { requests: string[] }> {
  const requests: string[] = [];
  const server = await serve((req, res) => {
    requests.push(req.url ?? '');
    const match = /^\/v([^/]+)\/([^/]+)$/.exec(req.url ?? '');
    const file = match?.[1] === VERSION ? join(dir, match[2] as string) : undefined;
    if (!file || !existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-length': statSync(file).size, 'content-type': 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return { ...server, requests };
}

/** The README's and action's release URLs pointed at `server`. */
export function onLoopback(text: string, server: TestServer): string {
  return text.replaceAll(RELEASES, server.url);
}
