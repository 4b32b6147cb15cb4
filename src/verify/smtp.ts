import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { hostname } from 'node:os';
import { Semaphore } from './limit.js';

export interface SmtpOptions {
  /** Port of the mail hosts. Default 25. */
  port?: number;
  /** Envelope sender (MAIL FROM). Default `verify@<helo>`. */
  from?: string;
  /** Name given in EHLO. Default the machine's host name. */
  helo?: string;
  /** Limit for each step: connecting, the banner, each command's reply. Default 10000 ms. */
  timeoutMs?: number;
  /** Connections to one mail host (address and port) at once. Default 2. */
  perHost?: number;
  /**
   * Host (`name` or `name:port`) for the start-up reachability check; by default the first mail host
   * probed, on `port`.
   */
  probeHost?: string;
  /** Limit for the reachability check. Default the smaller of `timeoutMs` and 3000 ms. */
  probeTimeoutMs?: number;
}

export interface SmtpReply {
  code: number;
  /** Enhanced status code (RFC 3463) when the reply carries one, e.g. `5.1.1`. */
  enhanced?: string;
  /** The reply's text, lines joined with a space. */
  text: string;
}

export type SmtpOutcome =
  /** The mailbox was accepted; `catchAll` when a made-up mailbox at the same domain was accepted too. */
  | { status: 'accepted'; catchAll: boolean; reply?: SmtpReply }
  | { status: 'rejected'; reply: SmtpReply }
  /** No answer about the mailbox: a 4xx (`greylisted` when it came on RCPT), a timeout, a dropped connection... */
  | { status: 'unknown'; reason: 'greylisted' | 'smtp_unavailable'; detail: string }
  /** Probing is off for this run (outbound port unreachable): verdicts stay at the domain level. */
  | { status: 'skipped' };

export interface SmtpStats {
  /** Probes asked for (including those answered from a known catch-all domain). */
  probes: number;
  /** SMTP sessions opened (not counting the reachability check). */
  connections: number;
  /** The largest number of sessions open at once to one host. */
  maxPerHost: number;
  /** Domains found to accept any mailbox. */
  catchAllDomains: number;
  /** The reachability check's result: undefined until it ran. */
  reachable: boolean | undefined;
}

export interface ProbeTarget {
  /** The address to ask about, local part as given and ASCII domain. */
  local: string;
  domain: string;
  /** The local part needs SMTPUTF8. */
  smtputf8: boolean;
  /** The mail host to connect to (the best MX) and its addresses. */
  host: string;
  addresses: string[];
}

class SmtpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SmtpError';
  }
}

/**
 * One SMTP client connection: reads (possibly multi-line) replies, sends commands, a timeout on every
 * step. Nothing is ever sent after RCPT but QUIT.
 */
class Session {
  private buffer = '';
  private lines: string[] = [];
  private waiter: (() => void) | undefined;
  private ended: Error | undefined;

  private constructor(private readonly socket: net.Socket, private readonly timeoutMs: number) {
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
    socket.on('error', (err) => this.fail(new SmtpError(`connection error (${(err as NodeJS.ErrnoException).code ?? err.message})`)));
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

  /** The next complete reply. */
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

  /** QUIT politely, without waiting long for the goodbye; then close. */
  async quit(): Promise<void> {
    if (!this.ended) {
      try {
        this.socket.write('QUIT\r\n');
        let timer: NodeJS.Timeout | undefined;
        const goodbye = this.reply('QUIT').then(
          () => {},
          () => {},
        );
        await Promise.race([goodbye, new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(this.timeoutMs, 1000))))]);
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

const describe = (r: SmtpReply): string => `${r.code} ${r.text}`.slice(0, 200);

/**
 * The SMTP probe: banner, EHLO, MAIL FROM, RCPT TO the address, RCPT TO a made-up mailbox at the same
 * domain (catch-all), QUIT. At most `perHost` sessions per mail host at once; a domain once found
 * catch-all is not probed again.
 */
export class SmtpProber {
  private readonly port: number;
  private readonly helo: string;
  private readonly from: string;
  private readonly timeoutMs: number;
  private readonly perHost: number;
  private readonly limits = new Map<string, Semaphore>();
  private readonly catchAll = new Set<string>();
  private readonly open = new Set<Session>();
  private reachable: Promise<boolean> | undefined;
  private readonly counters: SmtpStats = { probes: 0, connections: 0, maxPerHost: 0, catchAllDomains: 0, reachable: undefined };

  constructor(
    private readonly opts: SmtpOptions = {},
    private readonly warn: (message: string) => void = () => {},
  ) {
    this.port = opts.port ?? 25;
    this.helo = opts.helo ?? (hostname() || 'localhost');
    this.from = opts.from ?? `verify@${this.helo}`;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.perHost = opts.perHost ?? 2;
  }

  async probe(target: ProbeTarget): Promise<SmtpOutcome> {
    this.counters.probes++;
    if (this.catchAll.has(target.domain)) return { status: 'accepted', catchAll: true };
    const address = target.addresses[0];
    if (address === undefined) return { status: 'unknown', reason: 'smtp_unavailable', detail: `no address for ${target.host}` };
    if (!(await this.checkReachable(address))) return { status: 'skipped' };
    const key = `${address}:${this.port}`;
    let limit = this.limits.get(key);
    if (!limit) {
      limit = new Semaphore(this.perHost);
      this.limits.set(key, limit);
    }
    const slot = limit;
    return slot.run(async () => {
      // Another probe may have found the domain catch-all while this one waited.
      if (this.catchAll.has(target.domain)) return { status: 'accepted', catchAll: true } as const;
      this.counters.maxPerHost = Math.max(this.counters.maxPerHost, slot.running);
      return this.session(address, target);
    });
  }

  stats(): SmtpStats {
    return { ...this.counters };
  }

  /** Closes any session still open. */
  close(): void {
    for (const s of this.open) s.destroy();
    this.open.clear();
  }

  /** Once per prober: can a connection to the mail port be opened at all? */
  private checkReachable(firstAddress: string): Promise<boolean> {
    this.reachable ??= (async () => {
      let host = firstAddress;
      let port = this.port;
      if (this.opts.probeHost) {
        const m = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(this.opts.probeHost);
        host = m?.[1] ?? m?.[2] ?? this.opts.probeHost;
        if (m?.[3]) port = Number(m[3]);
      }
      const timeout = this.opts.probeTimeoutMs ?? Math.min(this.timeoutMs, 3000);
      const ok = await new Promise<boolean>((resolve) => {
        const socket = net.connect({ host, port });
        const done = (result: boolean) => {
          clearTimeout(timer);
          socket.destroy();
          resolve(result);
        };
        const timer = setTimeout(() => done(false), timeout);
        socket.once('connect', () => done(true));
        socket.once('error', () => done(false));
      });
      this.counters.reachable = ok;
      if (!ok) {
        this.warn(`outbound SMTP (port ${port}) is unreachable: mailbox checks are skipped, verdicts are domain-level`);
      }
      return ok;
    })();
    return this.reachable;
  }

  private async session(address: string, target: ProbeTarget): Promise<SmtpOutcome> {
    let session: Session | undefined;
    try {
      session = await Session.connect(address, this.port, this.timeoutMs);
      this.counters.connections++;
      this.open.add(session);
      const banner = await session.reply('banner');
      if (banner.code !== 220) return unknown('smtp_unavailable', `banner: ${describe(banner)}`);
      let hello = await session.command(`EHLO ${this.helo}`);
      if (hello.code >= 500) hello = await session.command(`HELO ${this.helo}`);
      if (hello.code !== 250) return unknown('smtp_unavailable', `EHLO: ${describe(hello)}`);
      let mailFrom = `MAIL FROM:<${this.from}>`;
      if (target.smtputf8) {
        if (!/(^|\s)SMTPUTF8(\s|$)/i.test(hello.text)) {
          return unknown('smtp_unavailable', 'the server does not offer SMTPUTF8, which this address needs');
        }
        mailFrom += ' SMTPUTF8';
      }
      const from = await session.command(mailFrom, 'MAIL FROM');
      if (from.code !== 250) return unknown('smtp_unavailable', `MAIL FROM: ${describe(from)}`);

      const rcpt = await session.command(`RCPT TO:<${target.local}@${target.domain}>`, 'RCPT TO');
      if (rcpt.code === 421) return unknown('smtp_unavailable', `RCPT TO: ${describe(rcpt)}`);
      if (rcpt.code >= 400 && rcpt.code < 500) return unknown('greylisted', `RCPT TO: ${describe(rcpt)}`);
      if (rcpt.code >= 500) {
        // 5.7.x is policy (a block list, our sender, our address): it says nothing about the mailbox.
        if (rcpt.enhanced?.startsWith('5.7.')) return unknown('smtp_unavailable', `RCPT TO: ${describe(rcpt)}`);
        return { status: 'rejected', reply: rcpt };
      }
      if (rcpt.code < 200 || rcpt.code >= 300) return unknown('smtp_unavailable', `RCPT TO: ${describe(rcpt)}`);

      const madeUp = `mailclean-${randomBytes(9).toString('hex')}`;
      const other = await session.command(`RCPT TO:<${madeUp}@${target.domain}>`, 'RCPT TO');
      const catchAll = other.code >= 200 && other.code < 300;
      if (catchAll && !this.catchAll.has(target.domain)) {
        this.catchAll.add(target.domain);
        this.counters.catchAllDomains++;
      }
      return { status: 'accepted', catchAll, reply: rcpt };
    } catch (err) {
      return unknown('smtp_unavailable', err instanceof Error ? err.message : String(err));
    } finally {
      if (session) {
        await session.quit();
        this.open.delete(session);
      }
    }
  }
}

function unknown(reason: 'greylisted' | 'smtp_unavailable', detail: string): SmtpOutcome {
  return { status: 'unknown', reason, detail };
}
