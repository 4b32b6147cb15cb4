// What the built-in engine runs with (--local, the precheck).
export interface EngineSettings {
  smtp: boolean;
  smtpPort: number;
  smtpFrom?: string;
  /** The resolvers to ask (--dns-server or MAILCLEAN_DNS_SERVERS); undefined: the system's. */
  dnsServers?: string[];
}
