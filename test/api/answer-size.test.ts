// An answer of 100 MB (a misbehaving proxy, a hostile server) is refused once it passes 4 MiB: one line, exit 1,
// and the connection dropped, instead of the whole body read into memory.
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { expectError, useHome } from '../helpers/cli.js';
import { useServers } from '../helpers/http-server.js';

const MIB = 1024 * 1024;
const home = useHome();
const serve = useServers();

/** Streams up to 100 MiB of JSON-looking bytes, a MiB at a time, while the client reads; counts what went out. */
function streamHuge(res: ServerResponse, sent: { mib: number; closed: boolean }, declare: boolean): void {
  res.writeHead(200, {
    'content-type': 'application/json',
    ...(declare ? { 'content-length': String(100 * MIB) } : {}),
  });
  res.on('close', () => (sent.closed = true));
  const chunk = Buffer.alloc(MIB, 0x20);
  const more = () => {
    while (sent.mib < 100 && !sent.closed) {
      sent.mib++;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    if (!sent.closed) res.end();
  };
  more();
}

describe('answer size', () => {
  it.each([
    ['streamed without a length', false],
    ['declared 100 MiB up front', true],
  ])('a 100 MiB answer (%s) is refused past 4 MiB, the connection dropped', async (_name, declare) => {
    const sent = { mib: 0, closed: false };
    const server = await serve((req, res) => {
      req.resume();
      streamHuge(res, sent, declare);
    });
    const res = await home().run(['me', '--api-url', server.url], {
      env: { MAILCLEAN_TOKEN: 'token-0123456789abcdef' },
    });
    const host = new URL(server.url).host;
    expectError(
      res,
      1,
      `error: the platform at ${host} answered GET /api/me with more than 4 MiB, more than any answer needs`,
    );
    expect(sent.mib).toBeLessThan(100);
  });
});
