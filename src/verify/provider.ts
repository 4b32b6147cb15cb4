// The mail provider behind a domain, told by its MX hosts (the patterns are provider-hosts.ts's).
import type { DomainCheck, MailHost } from './dns-check.js';
import { type KnownProvider, PROVIDER_HOSTS, type Provider } from './provider-hosts.js';

export { PROVIDERS, type Provider } from './provider-hosts.js';

const MATCHERS: ReadonlyArray<readonly [KnownProvider, RegExp]> = Object.entries(PROVIDER_HOSTS).map(
  ([provider, patterns]) => [provider as KnownProvider, hostPattern(patterns)],
);

function hostPattern(patterns: readonly string[]): RegExp {
  const each = patterns.map((p) => p.split('.').map((label) => (label === '*' ? '[^.]+' : label.replace(/-/g, '\\-'))));
  return new RegExp(`(?:^|\\.)(?:${each.map((labels) => labels.join('\\.')).join('|')})$`);
}

/** The provider that runs `host`, or undefined when none of the patterns knows it. */
export function providerOfHost(host: string): KnownProvider | undefined {
  const name = host.toLowerCase().replace(/\.$/, '');
  return MATCHERS.find(([, pattern]) => pattern.test(name))?.[0];
}

/**
 * The provider behind a domain's mail: its most preferred hosts decide (a gateway in front of a mailbox provider
 * receives the mail, so it is the one named); `other` when none of them is known, '' when DNS named no mail host.
 */
export function providerOfHosts(hosts: readonly MailHost[]): Provider | '' {
  if (hosts.length === 0) return '';
  const best = Math.min(...hosts.map((h) => h.priority));
  const names = hosts.filter((h) => h.priority === best).map((h) => h.exchange);
  // Hosts of one preference come in any order: the first name in order decides, so every run says the same.
  for (const name of names.sort()) {
    const provider = providerOfHost(name);
    if (provider) return provider;
  }
  return 'other';
}

/** What a domain's lookup says of its provider: '' unless DNS answered with a mail host (MX, or A/AAAA without). */
export function providerOf(check: DomainCheck | undefined): Provider | '' {
  return check?.status === 'ok' ? providerOfHosts(check.hosts) : '';
}
