// A real forward proxy on 127.0.0.1 for tests: plain HTTP requests in absolute form are forwarded, CONNECT is
// tunnelled, and every request is counted by the host it was for.
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

export interface TestProxy {
  url: string;
  /** Requests seen, by target host:port (a CONNECT counts once, for its tunnel). */
  seen: Map<string, number>;
  total(): number;
  close(): Promise<void>;
}

export async function startProxy(): Promise<TestProxy> {
  const seen = new Map<string, number>();
  const count = (target: string) => seen.set(target, (seen.get(target) ?? 0) + 1);
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const target = new URL(req.url ?? '/');
    count(target.host);
    const upstream = request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    count(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    total: () => [...seen.values()].reduce((a, b) => a + b, 0),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
