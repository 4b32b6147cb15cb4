import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { hostname } from 'node:os';
import pLimit, { type LimitFunction } from 'p-limit';
import { describeReply, Session, type SmtpReply } from './smtp-session.js';

export type { SmtpReply } from './smtp-session.js';

export interface SmtpOptions {
  port?: number;
  from?: string;
  helo?: string;
  /** Limit for each step: connecting, the banner, each command's reply. Default 10000 ms. */
  timeoutMs?: number;
  perHost?: number;
  /** Host (`name` or `name:port`) for the start-up reachability check; default the first mail host probed. */
  probeHost?: string;
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
  probes: number;
  connections: number;
  maxPerHost: number;
  catchAllDomains: number;
  reachable: boolean | undefined;
}

export interface ProbeTarget {
  local: string;
  domain: string;
  smtputf8: boolean;
  host: string;
  addresses: string[];
}

/** EHLO, MAIL FROM, RCPT TO the address and a made-up one (catch-all), QUIT; a catch-all domain is not probed again. */
export class SmtpProber {
  private readonly port: number;
  private readonly helo: string;
  private readonly from: string;
  private readonly timeoutMs: number;
  private readonly perHost: number;
  private readonly limits = new Map<string, LimitFunction>();
  private readonly catchAll = new Set<string>();
  private readonly open = new Set<Session>();
  private reachable: Promise<boolean> | undefined;
  private readonly counters: SmtpStats = {
    probes: 0,
    connections: 0,
    maxPerHost: 0,
    catchAllDomains: 0,
    reachable: undefined,
  };

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
    if (address === undefined)
      return { status: 'unknown', reason: 'smtp_unavailable', detail: `no address for ${target.host}` };
    if (!(await this.checkReachable(address))) return { status: 'skipped' };
    const key = `${address}:${this.port}`;
    let limit = this.limits.get(key);
    if (!limit) {
      limit = pLimit(this.perHost);
      this.limits.set(key, limit);
    }
    const slot = limit;
    return slot(async () => {
      // Another probe may have found the domain catch-all while this one waited.
      if (this.catchAll.has(target.domain)) return { status: 'accepted', catchAll: true } as const;
      this.counters.maxPerHost = Math.max(this.counters.maxPerHost, slot.activeCount);
      return this.session(address, target);
    });
  }

  stats(): SmtpStats {
    return { ...this.counters };
  }

  close(): void {
    for (const s of this.open) s.destroy();
    this.open.clear();
  }

  private checkReachable(firstAddress: string): Promise<boolean> {
    this.reachable ??= (async () => {
      let host = firstAddress;
      let port = this.port;
      if (this.opts.probeHost) {
        const m = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(this.opts.probeHost);
        host = m?.[1] ?? m?.[2] ?? this.opts.probeHost;
        if (m?.[3]) port = Number(m[3]);
      }
      const timeout = Math.min(this.timeoutMs, 3000);
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
      if (banner.code !== 220) return unknown('smtp_unavailable', `banner: ${describeReply(banner)}`);
      let hello = await session.command(`EHLO ${this.helo}`);
      if (hello.code >= 500) hello = await session.command(`HELO ${this.helo}`);
      if (hello.code !== 250) return unknown('smtp_unavailable', `EHLO: ${describeReply(hello)}`);
      let mailFrom = `MAIL FROM:<${this.from}>`;
      if (target.smtputf8) {
        if (!/(^|\s)SMTPUTF8(\s|$)/i.test(hello.text)) {
          return unknown('smtp_unavailable', 'the server does not offer SMTPUTF8, which this address needs');
        }
        mailFrom += ' SMTPUTF8';
      }
      const from = await session.command(mailFrom, 'MAIL FROM');
      if (from.code !== 250) return unknown('smtp_unavailable', `MAIL FROM: ${describeReply(from)}`);

      const rcpt = await session.command(`RCPT TO:<${target.local}@${target.domain}>`, 'RCPT TO');
      if (rcpt.code === 421) return unknown('smtp_unavailable', `RCPT TO: ${describeReply(rcpt)}`);
      if (rcpt.code >= 400 && rcpt.code < 500) return unknown('greylisted', `RCPT TO: ${describeReply(rcpt)}`);
      if (rcpt.code >= 500) {
        // 5.7.x is policy (a block list, our sender, our address): it says nothing about the mailbox.
        if (rcpt.enhanced?.startsWith('5.7.')) return unknown('smtp_unavailable', `RCPT TO: ${describeReply(rcpt)}`);
        return { status: 'rejected', reply: rcpt };
      }
      if (rcpt.code < 200 || rcpt.code >= 300) return unknown('smtp_unavailable', `RCPT TO: ${describeReply(rcpt)}`);

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
