import { createServer, type Socket } from 'node:net';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';

/** What the peer does with one RCPT TO. */
export type RcptBehaviour =
  | { kind: 'accept'; delayMs?: number }
  | { kind: 'reject'; code?: number; message?: string }
  | { kind: 'greylist' }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'drop' };

export type RcptRule = (local: string, domain: string) => RcptBehaviour;

/**
 * The default rules, by recipient domain:
 * - `accept.internal`: mailboxes `alice`, `bob`, `info` and `user*` exist, others get 550 5.1.1;
 * - `busy.internal`: as accept.internal, each answer 40 ms late (so sessions overlap);
 * - `reject.internal`: 550 5.1.1 for everyone;
 * - `policy.internal`: 550 5.7.1 (a block, not a verdict on the mailbox);
 * - `greylist.internal`: 451 4.7.1;
 * - `catchall.internal`: accepts any mailbox;
 * - `slow.internal`: answers RCPT after 5 s;
 * - `drop.internal`: drops the connection at RCPT.
 */
export const defaultRules: RcptRule = (local, domain) => {
  const known = ['alice', 'bob', 'info'].includes(local) || local.startsWith('user');
  switch (domain) {
    case 'accept.internal':
      return known ? { kind: 'accept' } : { kind: 'reject' };
    case 'busy.internal':
      return known ? { kind: 'accept', delayMs: 40 } : { kind: 'reject' };
    case 'reject.internal':
      return { kind: 'reject' };
    case 'policy.internal':
      return { kind: 'reject', code: 550, message: '5.7.1 Client host blocked' };
    case 'greylist.internal':
      return { kind: 'greylist' };
    case 'catchall.internal':
      return { kind: 'accept' };
    case 'slow.internal':
      return { kind: 'slow', delayMs: 5000 };
    case 'drop.internal':
      return { kind: 'drop' };
    default:
      return { kind: 'reject' };
  }
};

export interface SmtpPeer {
  port: number;
  /** Sessions opened (TCP connections accepted). */
  connections: number;
  /** The most sessions open at once (a session ends at QUIT or when its connection closes). */
  maxConcurrent: number;
  /** Every RCPT TO address, in order. */
  rcpts: string[];
  /** MAIL FROM addresses. */
  mailFrom: string[];
  /** Client names given in EHLO/HELO. */
  helos: string[];
  /** Times a client sent DATA (a probe never should). */
  dataCommands: number;
  close(): Promise<void>;
}

/** An SMTP server (`smtp-server`) on 127.0.0.1, port 0, answering RCPT TO by `rules`. */
export async function startSmtpPeer(rules: RcptRule = defaultRules, host = '127.0.0.1'): Promise<SmtpPeer> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let open = 0;
  const peer: Omit<SmtpPeer, 'port' | 'close'> = {
    connections: 0,
    maxConcurrent: 0,
    rcpts: [],
    mailFrom: [],
    helos: [],
    dataCommands: 0,
  };

  const server: SMTPServer = new SMTPServer({
    name: 'mx.peer.internal',
    banner: 'mailclean test peer',
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    logger: false,
    onMailFrom(address: SMTPServerAddress, session: SMTPServerSession, callback: (err?: Error | null) => void) {
      peer.mailFrom.push(address.address);
      if (session.hostNameAppearsAs) peer.helos.push(session.hostNameAppearsAs);
      callback();
    },
    onRcptTo(address: SMTPServerAddress, session: SMTPServerSession, callback: (err?: Error | null) => void) {
      peer.rcpts.push(address.address);
      const at = address.address.lastIndexOf('@');
      const behaviour = rules(address.address.slice(0, at), address.address.slice(at + 1).toLowerCase());
      const later = (ms: number, fn: () => void) => {
        const t = setTimeout(() => {
          timers.delete(t);
          fn();
        }, ms);
        timers.add(t);
      };
      switch (behaviour.kind) {
        case 'accept':
          if (behaviour.delayMs) later(behaviour.delayMs, () => callback());
          else callback();
          return;
        case 'reject':
          callback(smtpError(behaviour.code ?? 550, behaviour.message ?? '5.1.1 No such user here'));
          return;
        case 'greylist':
          callback(smtpError(451, '4.7.1 Greylisted, please try again later'));
          return;
        case 'slow':
          later(behaviour.delayMs, () => callback());
          return;
        case 'drop':
          for (const connection of server.connections) if (connection.id === session.id) connection._socket.destroy();
          return;
      }
    },
    onData(stream, _session, callback) {
      peer.dataCommands++;
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  server.server.on('connection', (socket: Socket) => {
    peer.connections++;
    open++;
    peer.maxConcurrent = Math.max(peer.maxConcurrent, open);
    sockets.add(socket);
    // A session is over once the client said QUIT (it waits for our 221 before it goes on), or closed.
    let over = false;
    const end = () => {
      if (!over) {
        over = true;
        open--;
      }
    };
    socket.on('data', (chunk: Buffer) => {
      if (/(^|\n)QUIT\r?\n/i.test(chunk.toString('latin1'))) end();
    });
    socket.on('close', () => {
      end();
      sockets.delete(socket);
    });
  });
  server.on('error', () => {
    // A client that vanishes mid-session is expected here.
  });

  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return Object.assign(peer, {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  });
}

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/** A TCP port on 127.0.0.1 that nothing listens on (bound, then released): connections are refused. */
export async function closedTcpPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}
