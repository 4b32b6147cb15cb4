import dgram from 'node:dgram';
import dnsPacket from 'dns-packet';

/** What one name answers. A name that is not in the zone answers NXDOMAIN. */
export interface ZoneEntry {
  MX?: { preference: number; exchange: string }[];
  A?: string[];
  AAAA?: string[];
  NS?: string[];
  /** Answer every question for this name with this response code (and no records). */
  rcode?: 'NXDOMAIN' | 'SERVFAIL' | 'REFUSED';
  /** Never answer (the client times out). */
  silent?: boolean;
  /** Answer after this many milliseconds. */
  delayMs?: number;
}

export type Zones = Record<string, ZoneEntry> | ((name: string) => ZoneEntry | undefined);

export interface DnsQueryLog {
  name: string;
  type: string;
}

export interface TestDnsServer {
  port: number;
  /** `127.0.0.1:<port>`, ready for a resolver's server list. */
  server: string;
  /** Every question received, in order. */
  queries: DnsQueryLog[];
  /** The most delayed answers (`delayMs`) outstanding at once: a view of the client's concurrency. */
  maxInFlight: number;
  close(): Promise<void>;
}

/**
 * A DNS server on 127.0.0.1 (UDP, port 0) answering from the given zones: enough of RFC 1035 for
 * c-ares (node's resolver) to ask MX, A, AAAA and NS questions and get answers, NODATA, NXDOMAIN,
 * SERVFAIL, REFUSED or silence.
 */
export async function startDnsServer(zones: Zones): Promise<TestDnsServer> {
  const socket = dgram.createSocket('udp4');
  const queries: DnsQueryLog[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  // Like a resolver that sees the Internet, it knows `com` (the engine's canary) unless the zones say otherwise.
  const lookup = (name: string): ZoneEntry | undefined =>
    (typeof zones === 'function' ? zones(name) : zones[name]) ??
    (name === 'com' ? { NS: ['a.gtld-servers.example'] } : undefined);

  socket.on('message', (msg, rinfo) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    queries.push({ name, type: question.type });
    const entry = lookup(name);
    if (entry?.silent) return;

    let rcode: 'NOERROR' | 'NXDOMAIN' | 'SERVFAIL' | 'REFUSED' = 'NOERROR';
    const answers: dnsPacket.Answer[] = [];
    if (!entry) rcode = 'NXDOMAIN';
    else if (entry.rcode) rcode = entry.rcode;
    else if (question.type === 'MX') {
      for (const mx of entry.MX ?? []) answers.push({ type: 'MX', name: question.name, ttl: 60, data: mx });
    } else if (question.type === 'A') {
      for (const ip of entry.A ?? []) answers.push({ type: 'A', name: question.name, ttl: 60, data: ip });
    } else if (question.type === 'NS') {
      for (const ns of entry.NS ?? []) answers.push({ type: 'NS', name: question.name, ttl: 60, data: ns });
    } else if (question.type === 'AAAA') {
      for (const ip of entry.AAAA ?? []) answers.push({ type: 'AAAA', name: question.name, ttl: 60, data: ip });
    }
    const reply = dnsPacket.encode({
      id: query.id,
      type: 'response',
      // QR, RD copied, RA, plus the response code in the low four bits.
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | RCODES[rcode],
      questions: [question],
      answers,
    });
    const send = () => socket.send(reply, rinfo.port, rinfo.address);
    if (entry?.delayMs) {
      inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, inFlight);
      const t = setTimeout(() => {
        timers.delete(t);
        inFlight--;
        send();
      }, entry.delayMs);
      timers.add(t);
    } else send();
  });

  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  const port = socket.address().port;
  return Object.assign(state, {
    port,
    server: `127.0.0.1:${port}`,
    queries,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        socket.close(() => resolve());
      }),
  });
}

const RCODES = { NOERROR: 0, NXDOMAIN: 3, SERVFAIL: 2, REFUSED: 5 } as const;

/** A UDP port on 127.0.0.1 that nothing listens on (bound, then released): queries to it are refused. */
export async function closedUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  const port = socket.address().port;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}
