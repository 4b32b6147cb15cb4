import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/** A raw HTTP server on 127.0.0.1 for answers the sandbox never gives (HTML error pages, garbage bodies). */
export async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 with nothing listening. */
export async function closedPort(): Promise<number> {
  const s = await serve(() => undefined);
  const port = Number(new URL(s.url).port);
  await s.close();
  return port;
}

/** Call at the top of a file or describe block: servers started through it are closed after each test. */
export function useServers(): (handler: (req: IncomingMessage, res: ServerResponse) => void) => Promise<TestServer> {
  const open: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  return async (handler) => {
    const server = await serve(handler);
    open.push(server);
    return server;
  };
}
