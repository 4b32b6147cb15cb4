import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine, type EngineOptions } from '../../src/verify/engine.js';
import { startDnsServer, type TestDnsServer, type ZoneEntry } from '../helpers/dns-server.js';
import { closedTcpPort, type SmtpPeer, startSmtpPeer } from '../helpers/smtp-peer.js';

const PEER_DOMAINS = [
  'accept.internal',
  'busy.internal',
  'reject.internal',
  'policy.internal',
  'greylist.internal',
  'catchall.internal',
  'slow.internal',
  'drop.internal',
  'raw.internal',
];
const zones = (name: string): ZoneEntry | undefined => {
  if (PEER_DOMAINS.includes(name)) return { MX: [{ preference: 10, exchange: 'mx.peer.internal' }] };
  if (name === 'mx.peer.internal') return { A: ['127.0.0.1'] };
  // The best MX (preference 5) is the peer; the other one has nothing listening.
  if (name === 'twomx.internal')
    return {
      MX: [
        { preference: 10, exchange: 'mx.down.internal' },
        { preference: 5, exchange: 'mx.peer.internal' },
      ],
    };
  if (name === 'mx.down.internal') return { A: ['127.0.0.2'] };
  // No MX: the domain's own address is its mail host.
  if (name === 'implicit.internal') return { A: ['127.0.0.1'] };
  return undefined;
};

let dns: TestDnsServer;
let peer: SmtpPeer;
beforeAll(async () => {
  dns = await startDnsServer(zones);
  peer = await startSmtpPeer();
});
afterAll(async () => {
  await peer.close();
  await dns.close();
});

function engine(smtp: EngineOptions['smtp'] = {}, extra: Omit<EngineOptions, 'smtp' | 'dns'> = {}): Engine {
  return new Engine({
    ...extra,
    dns: { servers: [dns.server], timeoutMs: 500, tries: 1 },
    smtp: {
      enabled: true,
      port: peer.port,
      from: 'probe@mailclean.internal',
      helo: 'probe.mailclean.internal',
      timeoutMs: 1000,
      ...smtp,
    },
  });
}

describe('SMTP probe against smtp-server on 127.0.0.1', () => {
  it('is off unless asked for', async () => {
    const before = peer.connections;
    const e = new Engine({ dns: { servers: [dns.server] } });
    expect(await e.verify('zed@accept.internal')).toMatchObject({ status: 'valid' });
    expect(peer.connections).toBe(before);
    expect(e.stats().smtp).toBeUndefined();
  });

  it('accepts an existing mailbox after asking about a made-up one, and never sends DATA', async () => {
    const e = engine();
    const rcpts = peer.rcpts.length;
    expect(await e.verify('alice@accept.internal')).toEqual({
      status: 'valid',
      reason: '',
      valid: true,
      isDisposable: false,
      isValidDomain: true,
      role: false,
      freeProvider: false,
      smtputf8: false,
    });
    const asked = peer.rcpts.slice(rcpts);
    expect(asked[0]).toBe('alice@accept.internal');
    expect(asked[1]).toMatch(/^mailclean-[0-9a-f]+@accept\.internal$/);
    expect(peer.mailFrom).toContain('probe@mailclean.internal');
    expect(peer.helos).toContain('probe.mailclean.internal');
    expect(peer.dataCommands).toBe(0);
    await e.close();
  });

  it('calls a mailbox rejected with 5xx on RCPT invalid', async () => {
    const e = engine();
    expect(await e.verify('zed@accept.internal')).toMatchObject({
      status: 'invalid',
      reason: 'mailbox_rejected',
      valid: false,
      isValidDomain: true,
    });
    const v = await e.verify('ann@reject.internal');
    expect(v).toMatchObject({ status: 'invalid', reason: 'mailbox_rejected' });
    expect(v.detail).toMatch(/^550 5\.1\.1/);
  });

  it('does not take a policy block (5.7.x) as a verdict on the mailbox', async () => {
    expect(await engine().verify('ann@policy.internal')).toMatchObject({
      status: 'unknown',
      reason: 'smtp_unavailable',
      valid: null,
    });
  });

  it('calls greylisting (4xx) unknown, never invalid', async () => {
    expect(await engine().verify('ann@greylist.internal')).toMatchObject({
      status: 'unknown',
      reason: 'greylisted',
      valid: null,
      isValidDomain: true,
    });
  });

  it('calls a domain that accepts any mailbox catch-all, and does not probe it again', async () => {
    const e = engine();
    expect(await e.verify('ann@catchall.internal')).toMatchObject({
      status: 'risky',
      reason: 'catch_all',
      valid: false,
      isValidDomain: true,
    });
    const connections = peer.connections;
    expect(await e.verify('bob@catchall.internal')).toMatchObject({ status: 'risky', reason: 'catch_all' });
    expect(peer.connections).toBe(connections);
    expect(e.stats().smtp).toMatchObject({ catchAllDomains: 1, probes: 2 });
  });

  it('gives up on a server that answers too slowly', async () => {
    // The peer answers after 5 s: only the 300 ms timeout firing can produce this verdict before the test's own limit.
    const e = engine({ timeoutMs: 300 });
    const v = await e.verify('ann@slow.internal');
    expect(v).toMatchObject({ status: 'unknown', reason: 'smtp_unavailable', valid: null });
    expect(v.detail).toMatch(/timeout/);
  });

  it('calls a dropped connection unknown', async () => {
    const v = await engine().verify('ann@drop.internal');
    expect(v).toMatchObject({ status: 'unknown', reason: 'smtp_unavailable' });
    expect(v.detail).toMatch(/closed/);
  });

  it('keeps a role account risky after SMTP accepted it', async () => {
    expect(await engine().verify('info@accept.internal')).toMatchObject({
      status: 'risky',
      reason: 'role',
      role: true,
    });
  });

  it('connects to the best MX, or to the domain itself when it has no MX', async () => {
    expect(await engine().verify('alice@twomx.internal')).toMatchObject({
      status: 'invalid',
      reason: 'mailbox_rejected',
    });
    expect(await engine().verify('bob@implicit.internal')).toMatchObject({
      status: 'invalid',
      reason: 'mailbox_rejected',
    });
    expect(peer.rcpts).toContain('alice@twomx.internal');
    expect(peer.rcpts).toContain('bob@implicit.internal');
  });

  it.each([2, 4])('opens at most perHost=%i connections to one host at once', async (perHost) => {
    // The reachability check goes elsewhere, so only probes reach the peer.
    const probe = createServer((s) => s.destroy());
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
    const port = (probe.address() as { port: number }).port;
    const quiet = await startSmtpPeer();
    try {
      const e = new Engine({
        dns: { servers: [dns.server] },
        smtp: { enabled: true, port: quiet.port, perHost, timeoutMs: 2000, probeHost: `127.0.0.1:${port}` },
      });
      const verdicts = await Promise.all(Array.from({ length: 16 }, (_, i) => e.verify(`user${i}@busy.internal`)));
      expect(verdicts.every((v) => v.status === 'valid')).toBe(true);
      expect(quiet.connections).toBe(16);
      expect(quiet.maxConcurrent).toBe(perHost);
      expect(e.stats().smtp).toMatchObject({ maxPerHost: perHost, connections: 16, reachable: true });
    } finally {
      await quiet.close();
      await new Promise<void>((resolve) => probe.close(() => resolve()));
    }
  });

  it('warns once and falls back to domain-level verdicts when the SMTP port is unreachable', async () => {
    const port = await closedTcpPort();
    const warnings: string[] = [];
    const e = engine({ port }, { onWarning: (m) => warnings.push(m) });
    const verdicts = await Promise.all(
      ['alice@accept.internal', 'zed@accept.internal', 'ann@reject.internal', 'info@accept.internal'].map((a) =>
        e.verify(a),
      ),
    );
    expect(verdicts.map((v) => v.status)).toEqual(['valid', 'valid', 'valid', 'risky']);
    expect(warnings).toEqual([
      `outbound SMTP (port ${port}) is unreachable: mailbox checks are skipped, verdicts are domain-level`,
    ]);
    expect(e.stats().smtp).toMatchObject({ reachable: false, connections: 0 });
  });
});

/** A hand-written SMTP server for byte-level cases: multi-line replies, bare LF, SMTPUTF8. */
async function rawServer(opts: { smtputf8: boolean }): Promise<{ server: Server; port: number; commands: string[] }> {
  const commands: string[] = [];
  const server = createServer((socket: Socket) => {
    let rcpts = 0;
    let buffer = '';
    socket.write('220-raw.internal first banner line\r\n220-second line with a bare LF\n220 ready\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        commands.push(line);
        const verb = line.split(/[ :]/)[0]!.toUpperCase();
        if (verb === 'EHLO')
          socket.write(
            `250-raw.internal\r\n250-PIPELINING\r\n${opts.smtputf8 ? '250-SMTPUTF8\r\n' : ''}250 8BITMIME\r\n`,
          );
        else if (verb === 'MAIL') socket.write('250 2.1.0 OK\r\n');
        else if (verb === 'RCPT')
          socket.write(rcpts++ === 0 ? '250 2.1.5 OK\r\n' : '550-5.1.1 no such\r\n550 5.1.1 user\r\n');
        else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('502 5.5.1 not here\r\n');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, port: (server.address() as { port: number }).port, commands };
}

describe('SMTP probe on the wire', () => {
  it('reads multi-line replies, sends RCPT twice then QUIT, and nothing after RCPT', async () => {
    const raw = await rawServer({ smtputf8: true });
    try {
      const e = engine({ port: raw.port, probeHost: `127.0.0.1:${raw.port}` });
      expect(await e.verify('ann@raw.internal')).toMatchObject({ status: 'valid', reason: '' });
      await e.close();
      const verbs = raw.commands.map((c) => c.split(/[ :]/)[0]);
      expect(verbs).toEqual(['EHLO', 'MAIL', 'RCPT', 'RCPT', 'QUIT']);
      expect(raw.commands[1]).toBe('MAIL FROM:<probe@mailclean.internal>');
      expect(raw.commands[2]).toBe('RCPT TO:<ann@raw.internal>');
    } finally {
      await new Promise<void>((resolve) => raw.server.close(() => resolve()));
    }
  });

  it('asks for SMTPUTF8 when the address needs it, and does not probe a server without it', async () => {
    const withUtf8 = await rawServer({ smtputf8: true });
    const without = await rawServer({ smtputf8: false });
    try {
      expect(await engine({ port: withUtf8.port }).verify('josé@raw.internal')).toMatchObject({
        status: 'valid',
        smtputf8: true,
      });
      expect(withUtf8.commands).toContain('MAIL FROM:<probe@mailclean.internal> SMTPUTF8');
      expect(withUtf8.commands).toContain('RCPT TO:<josé@raw.internal>');
      const v = await engine({ port: without.port }).verify('josé@raw.internal');
      expect(v).toMatchObject({ status: 'unknown', reason: 'smtp_unavailable', smtputf8: true });
      expect(without.commands.some((c) => c.startsWith('RCPT'))).toBe(false);
    } finally {
      await new Promise<void>((resolve) => withUtf8.server.close(() => resolve()));
      await new Promise<void>((resolve) => without.server.close(() => resolve()));
    }
  });
});
