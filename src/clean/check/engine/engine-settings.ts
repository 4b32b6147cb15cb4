// What the built-in engine runs with, for a check with --local and for the precheck before a service is paid.
export interface EngineSettings {
  smtp: boolean;
  smtpPort: number;
  smtpFrom?: string;
  /** The resolvers to ask (--dns-server or MAILCLEAN_DNS_SERVERS); undefined: the system's. */
  dnsServers?: string[];
}
