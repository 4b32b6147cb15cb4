// An npm registry on 127.0.0.1 serving exactly the packages package-lock.json locks, from the npm cache that
// `npm ci` filled: `npm install -g mailclean.tgz` can then run as users run it, without reaching the network.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

interface LockEntry {
  version: string;
  integrity?: string;
  dev?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, unknown>;
  bin?: Record<string, string> | string;
  engines?: Record<string, string>;
  os?: string[];
  cpu?: string[];
}

export interface LocalRegistry {
  url: string;
  /** Packages asked for that the lock does not hold (the install then fails, and this says why). */
  missing: string[];
  close(): Promise<void>;
}

/** Where cacache keeps content of this integrity (`sha512-<base64>`). */
function cachedPath(cacheDir: string, integrity: string): string {
  const [algo, base64] = integrity.split('-', 2) as [string, string];
  const hex = Buffer.from(base64, 'base64').toString('hex');
  return join(cacheDir, '_cacache', 'content-v2', algo, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
}

/** Every version of every non-dev package in the lock, by name. */
function lockedPackages(lockFile: string): Map<string, Map<string, LockEntry>> {
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages: Record<string, LockEntry> };
  const byName = new Map<string, Map<string, LockEntry>>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev || !entry.integrity) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (!byName.has(name)) byName.set(name, new Map());
    byName.get(name)!.set(entry.version, entry);
  }
  return byName;
}

export async function startRegistry(lockFile: string, cacheDir: string): Promise<LocalRegistry> {
  const packages = lockedPackages(lockFile);
  const missing: string[] = [];
  let base = '';
  const packument = (name: string, versions: Map<string, LockEntry>) => {
    const out: Record<string, unknown> = {};
    for (const [version, e] of versions) {
      const { dev: _dev, integrity, ...fields } = e;
      out[version] = {
        name,
        ...fields,
        dist: { tarball: `${base}/${name}/-/${encodeURIComponent(name)}-${version}.tgz`, integrity },
      };
    }
    const latest = [...versions.keys()].at(-1)!;
    return { name, 'dist-tags': { latest }, versions: out };
  };
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
    const tarball = /^(.+)\/-\/.+-(\d[^/]*)\.tgz$/.exec(path);
    const name = tarball ? tarball[1]! : path;
    const versions = packages.get(name);
    const entry = tarball ? versions?.get(tarball[2]!) : undefined;
    if (!versions || (tarball && (!entry || !existsSync(cachedPath(cacheDir, entry.integrity!))))) {
      missing.push(path);
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    } else if (entry) {
      res
        .writeHead(200, { 'content-type': 'application/octet-stream' })
        .end(readFileSync(cachedPath(cacheDir, entry.integrity!)));
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument(name, versions)));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    missing,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
