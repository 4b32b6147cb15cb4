// A door on 127.0.0.1 in front of a server (the sandbox): requests (or, once the server answered, their answers) wait
// at it until the test opens it, then go through unchanged. A test can then act while it knows requests are in flight (stop Redis, start a second runner)
// instead of racing a process's start-up with the service's rate window, which loses under load.
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Gate {
  /** Where the CLI should send its requests instead of the server. */
  url: string;
  /** Requests (or answers) waiting at the door whose client is still there. */
  waiting(): number;
  /** Lets what waits (whose client is still there) and every later request through. */
  open(): void;
  close(): Promise<void>;
}

/**
 * `passing`: how many POSTs go through before the door shuts (default none). A request whose client went away
 * while it waited (a killed run) is never sent: the server would charge for an answer nobody reads. With
 * `hold: 'answers'`, a request past those goes through at once (the server charges it) and its answer waits at the
 * door instead: a run killed then was billed for answers it never read.
 */
export async function startGate(
  target: string,
  { passing = 0, hold = 'requests' }: { passing?: number; hold?: 'requests' | 'answers' } = {},
): Promise<Gate> {
  let isOpen = false;
  let passed = 0;
  const held: Array<() => void> = [];
  let waiting = 0;
  /** Keeps `res` waiting until the door opens; `send` answers it then, unless its client went away. */
  const wait = (res: ServerResponse, send: () => void, dropped = () => undefined) => {
    let gone = false;
    waiting++;
    res.on('close', () => {
      if (gone) return;
      gone = true;
      waiting--;
      dropped();
    });
    held.push(() => {
      if (gone) return;
      waiting--;
      gone = true;
      send();
    });
  };
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, answerWaits = false) => {
    const upstream = request(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: req.headers },
      (answer) => {
        const pass = () => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        };
        if (answerWaits && !isOpen) wait(res, pass, () => void answer.resume());
        else pass();
      },
    );
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (isOpen || (req.method === 'POST' && passed++ < passing)) return forward(req, res, body);
      if (hold === 'answers') return forward(req, res, body, true);
      wait(res, () => forward(req, res, body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const open = () => {
    isOpen = true;
    for (const send of held.splice(0)) send();
  };
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
