// A door on 127.0.0.1 in front of a server (the sandbox): requests wait at it until the test opens it, then go
// through unchanged. A test can then act while it knows requests are in flight (stop Redis, start a second runner)
// instead of racing a process's start-up with the service's rate window, which loses under load.
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Gate {
  /** Where the CLI should send its requests instead of the server. */
  url: string;
  /** Requests waiting at the door. */
  waiting(): number;
  /** Lets the waiting requests and every later one through. */
  open(): void;
  close(): Promise<void>;
}

export async function startGate(target: string): Promise<Gate> {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let waiting = 0;
  const server = createServer((req, res) => {
    waiting++;
    void opened.then(() => {
      waiting--;
      const upstream = request(
        new URL(req.url ?? '/', target),
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    waiting: () => waiting,
    open,
    close: () =>
      new Promise<void>((resolve) => {
        open();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Waits until `check` holds, looking every 20 ms; false if it did not within `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 30_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
