// What the built-in engine runs with (--local, the precheck).
import type { EngineOptions } from '../../../verify/index.js';

export interface EngineSettings {
  smtp: boolean;
  smtpPort: number;
  smtpFrom?: string;
  /** The resolvers to ask (--dns-server or MAILCLEAN_DNS_SERVERS); undefined: the system's. */
  dnsServers?: string[];
  /** Domains looked up at once (--dns-concurrency); undefined: learned from the resolver's answers. */
  dnsConcurrency?: number;
  /** How long a DNS query's first try is waited for (--dns-timeout), in ms; undefined: learned. */
  dnsTimeoutMs?: number;
}

/** The engine's DNS and SMTP options from the run's settings. */
export function engineOptionsOf(settings: EngineSettings): Required<Pick<EngineOptions, 'dns' | 'smtp'>> {
  return {
    dns: { servers: settings.dnsServers, concurrency: settings.dnsConcurrency, timeoutMs: settings.dnsTimeoutMs },
    smtp: { enabled: settings.smtp, port: settings.smtpPort, from: settings.smtpFrom },
  };
}
