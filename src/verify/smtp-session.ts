import net from 'node:net';

export interface SmtpReply {
  code: number;
  /** Enhanced status code (RFC 3463) when the reply carries one, e.g. `5.1.1`. */
  enhanced?: string;
  text: string;
}

export class SmtpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SmtpError';
  }
}

/** One SMTP client connection, a timeout on every step; nothing is sent after RCPT but QUIT. */
export class Session {
  private buffer = '';
  private lines: string[] = [];
  private waiter: (() => void) | undefined;
  private ended: Error | undefined;

  private constructor(
    private readonly socket: net.Socket,
    private readonly timeoutMs: number,
  ) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        this.lines.push(this.buffer.slice(0, nl).replace(/\r$/, ''));
        this.buffer = this.buffer.slice(nl + 1);
      }
      // A runaway line without an end is not SMTP.
      if (this.buffer.length > 65536) this.fail(new SmtpError('reply line too long'));
      this.wake();
    });
    socket.on('error', (err) =>
      this.fail(new SmtpError(`connection error (${(err as NodeJS.ErrnoException).code ?? err.message})`)),
    );
    socket.on('close', () => this.fail(new SmtpError('connection closed by the server')));
  }

  static connect(host: string, port: number, timeoutMs: number): Promise<Session> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host, port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new SmtpError(`timeout connecting to ${host}:${port}`));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new Session(socket, timeoutMs));
      });
      socket.once('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        socket.destroy();
        reject(new SmtpError(`cannot connect to ${host}:${port} (${err.code ?? err.message})`));
      });
    });
  }

  async reply(step: string): Promise<SmtpReply> {
    const collected: string[] = [];
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) {
        const m = /^(\d{3})([ -]?)(.*)$/.exec(line);
        if (!m) throw new SmtpError(`not an SMTP reply during ${step}: ${line.slice(0, 80)}`);
        collected.push(m[3]!);
        // "250-..." continues; "250 ..." or a bare "250" ends the reply.
        if (m[2] !== '-') return parseReply(Number(m[1]), collected);
        continue;
      }
      if (this.ended) throw this.ended;
      const left = deadline - Date.now();
      if (left <= 0) throw new SmtpError(`timeout waiting for the reply to ${step}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.waiter = undefined;
          resolve();
        }, left);
        this.waiter = () => {
          clearTimeout(timer);
          this.waiter = undefined;
          resolve();
        };
      });
    }
  }

  async command(line: string, step = line.split(' ')[0] ?? line): Promise<SmtpReply> {
    if (this.ended) throw this.ended;
    this.socket.write(`${line}\r\n`);
    return this.reply(step);
  }

  async quit(): Promise<void> {
    if (!this.ended) {
      try {
        this.socket.write('QUIT\r\n');
        let timer: NodeJS.Timeout | undefined;
        const goodbye = this.reply('QUIT').then(
          () => {},
          () => {},
        );
        await Promise.race([
          goodbye,
          new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(this.timeoutMs, 1000)))),
        ]);
        clearTimeout(timer);
      } catch {
        // The goodbye does not matter.
      }
    }
    this.destroy();
  }

  destroy(): void {
    this.socket.destroy();
    this.fail(new SmtpError('connection closed'));
  }

  private fail(err: Error): void {
    this.ended ??= err;
    this.wake();
  }

  private wake(): void {
    this.waiter?.();
  }
}

function parseReply(code: number, lines: string[]): SmtpReply {
  const text = lines.join(' ').trim();
  const enhanced = /^([245]\.\d{1,3}\.\d{1,3})\b/.exec(text)?.[1];
  return enhanced ? { code, enhanced, text } : { code, text };
}

export const describeReply = (r: SmtpReply): string => `${r.code} ${r.text}`.slice(0, 200);
