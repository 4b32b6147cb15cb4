import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import type { Runner } from './index.js';
import type { Ctx } from '../context.js';
import { UsageError } from '../errors.js';
import { jsonOption } from './inputs.js';

export function define(cmd: Command, run: Runner): void {
  cmd
    .option('--port <n>', 'port to listen on (0 picks a free one)', '0')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--data <dir>', 'keep state in this directory (default: <data dir>/sandbox)')
    .option('--memory', 'keep state in memory only')
    .addOption(new Option('--plan <plan>', 'plan given to new cleaning accounts').choices(['free', 'pro', 'unlimited']).default('free'))
    .option('--internal-token-file <file>', 'file holding the internal token for /api/oem/register (else MAILCLEAN_INTERNAL_TOKEN)')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      `
Serves both interfaces on one origin and prints their base URLs. Stop it with Ctrl-C.

Example:
  mailclean sandbox --port 8080 --memory &
  mailclean --api-url http://127.0.0.1:8080 --clean-url http://127.0.0.1:8080 register`,
    )
    .action(run(sandbox));
}

async function sandbox(ctx: Ctx, opts: Record<string, unknown>): Promise<number> {
  const port = Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port: "${opts.port}" is not a port number`);
  if (opts.memory && opts.data !== undefined) throw new UsageError('--data and --memory cannot be used together');
  const internalToken = opts.internalTokenFile !== undefined ? await readToken(String(opts.internalTokenFile)) : ctx.env.MAILCLEAN_INTERNAL_TOKEN;
  const dataDir = opts.memory ? undefined : ((opts.data as string | undefined) ?? join(ctx.dataDir, 'sandbox'));

  const { startSandbox } = await import('../sandbox/server.js');
  let handle;
  try {
    handle = await startSandbox({
      host: String(opts.host),
      port,
      dataDir,
      internalToken,
      plan: opts.plan as 'free' | 'pro' | 'unlimited',
      log: ctx.debugEnabled ? (line) => ctx.debug(line) : undefined,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`--port: ${port} is already in use`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`--host: cannot bind ${opts.host}`);
    throw error;
  }
  if (opts.json !== undefined) ctx.json({ apiUrl: handle.url, cleanUrl: handle.url, dataDir: dataDir ?? null }, opts.json as string | boolean, ['apiUrl', 'cleanUrl', 'dataDir']);
  else ctx.out(`api-url    ${handle.url}\nclean-url  ${handle.url}\n`);
  ctx.note(`Sandbox running (${dataDir ? `state in ${dataDir}` : 'state in memory'}). Ctrl-C to stop.`);
  ctx.note(`Use it with: export MAILCLEAN_API_URL=${handle.url} MAILCLEAN_CLEAN_URL=${handle.url}`);

  await new Promise<void>((resolve) => {
    const offs = [ctx.io.onSignal('SIGINT', stop), ctx.io.onSignal('SIGTERM', stop)];
    function stop() {
      offs.forEach((off) => off());
      resolve();
    }
  });
  await handle.close();
  ctx.note('Sandbox stopped.');
  return 0;
}

async function readToken(file: string): Promise<string> {
  try {
    const token = (await readFile(file, 'utf8')).trim();
    if (!token) throw new UsageError(`--internal-token-file: ${file} is empty`);
    return token;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--internal-token-file: cannot read ${file}`);
  }
}
