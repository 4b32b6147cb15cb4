// A real redis-server for the tests that need one: started on a free loopback port with persistence off, and
// stopped after. Where it is not installed those tests are skipped and say why; .ci/run installs it and sets
// MAILCLEAN_REQUIRE_REDIS=1, which turns the skip into a failure.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe } from 'vitest';

export const REDIS_SERVER = '/usr/bin/redis-server';
export const redisInstalled =
  spawnSync('sh', ['-c', `command -v redis-server || test -x ${REDIS_SERVER}`]).status === 0;
export const redisRequired = process.env.MAILCLEAN_REQUIRE_REDIS === '1';
export const REDIS_SKIP_NOTE =
  'skipped: redis-server is not installed (apt-get install -y redis-server; .ci/run installs it)';

export interface RedisHandle {
  port: number;
  url: string;
  stop(): Promise<void>;
  /** Starts it again on the same port (after stop). */
  restart(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function launch(port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
      // On the real clock, as a shared server is, when the tests run at a faked date (.ci/run): the clients' clocks
      // then differ from the server's, which they must bear.
      { stdio: ['ignore', 'pipe', 'pipe'], env: withoutFakedTime(process.env) },
    );
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) resolve(child);
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`redis-server exited ${code}: ${out.slice(-500)}`)));
  });
}

/** The environment without libfaketime (LD_PRELOAD and its FAKETIME settings). */
export function withoutFakedTime(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const rest = { ...env };
  for (const name of Object.keys(rest)) if (name.startsWith('FAKETIME')) delete rest[name];
  const preload = rest.LD_PRELOAD?.split(/[: ]/).filter((lib) => lib && !lib.includes('faketime'));
  if (preload?.length) rest.LD_PRELOAD = preload.join(':');
  else delete rest.LD_PRELOAD;
  return rest;
}

export async function startRedis(): Promise<RedisHandle> {
  if (!redisInstalled) throw new Error('redis-server is not installed');
  const port = await freePort();
  let child = await launch(port);
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    restart: async () => {
      await stop();
      child = await launch(port);
    },
  };
}

/**
 * A suite that needs a redis-server: started before its tests and stopped after, given to them by `redis()`. Where
 * none is installed the suite is skipped and the file says so (unless MAILCLEAN_REQUIRE_REDIS=1 makes it fail).
 */
export function describeWithRedis(file: string, name: string, suite: (redis: () => RedisHandle) => void): void {
  if (!redisInstalled) console.log(`${file}: ${REDIS_SKIP_NOTE}`);
  describe.runIf(redisInstalled || redisRequired)(name, () => {
    let handle: RedisHandle | undefined;
    beforeAll(async () => {
      handle = await startRedis();
    });
    afterAll(() => handle?.stop());
    suite(() => handle as RedisHandle);
  });
}
