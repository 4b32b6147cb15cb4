// email_provider's table (src/verify/provider-hosts.ts): each provider told by MX hosts its customers publish,
// custom domains (Google Workspace, Microsoft 365) as well as the providers' own; unknown hosts are `other`, a
// domain without a mail host (or whose DNS did not answer) is unknown ('').
import { describe, expect, it } from 'vitest';
import type { DomainCheck } from '../../src/verify/dns-check.js';
import { providerOf, providerOfHost, providerOfHosts } from '../../src/verify/provider.js';
import { PROVIDER_HOSTS, PROVIDERS } from '../../src/verify/provider-hosts.js';

/** MX hosts as published (by the provider's own domains or its customers'), by the provider they name. */
const HOSTS: Record<keyof typeof PROVIDER_HOSTS, string[]> = {
  google: ['aspmx.l.google.com', 'alt1.aspmx.l.google.com', 'gmail-smtp-in.l.google.com', 'smtp.google.com'],
  microsoft: [
    'contoso-com.mail.protection.outlook.com',
    'hotmail-com.olc.protection.outlook.com',
    'outlook-com.olc.protection.outlook.com',
  ],
  yahoo: ['mta5.am0.yahoodns.net', 'mx-aol.mail.gm0.yahoodns.net'],
  apple: ['mx01.mail.icloud.com', 'MX02.mail.icloud.com.'],
  zoho: ['mx.zoho.com', 'mx.zoho.eu', 'mx2.zoho.in'],
  proton: ['mail.protonmail.ch', 'mailsec.protonmail.ch'],
  fastmail: ['in1-smtp.messagingengine.com', 'in2-smtp.messagingengine.com'],
  gmx: ['mx00.gmx.net', 'mx01.gmx.com'],
  yandex: ['mx.yandex.net', 'mx.yandex.ru'],
  mailru: ['mxs.mail.ru', 'emx.mail.ru'],
  qq: ['mx1.qq.com', 'mxbiz1.qq.com'],
  amazon: ['inbound-smtp.us-east-1.amazonaws.com', 'inbound-smtp.eu-west-1.amazonaws.com'],
  mimecast: ['eu-smtp-inbound-1.mimecast.com', 'us-smtp-inbound-2.mimecast.com'],
  proofpoint: ['mx0a-00123456.pphosted.com', 'mx1-us1.ppe-hosted.com'],
  barracuda: ['d123.a.ess.barracudanetworks.com', 'd123b.ccf.ess.barracudanetworks.com'],
};

const mx = (...hosts: Array<[string, number]>): DomainCheck => ({
  status: 'ok',
  hosts: hosts.map(([exchange, priority]) => ({ exchange, priority })),
});

describe('email_provider from MX hosts', () => {
  it('has an example host for every provider of the table, and names them all', () => {
    expect(Object.keys(HOSTS).sort()).toEqual(Object.keys(PROVIDER_HOSTS).sort());
    expect(PROVIDERS).toEqual([...Object.keys(PROVIDER_HOSTS), 'other']);
  });

  describe.each(Object.entries(HOSTS))('%s', (provider, hosts) => {
    it.each(hosts)('%s', (host) => {
      expect(providerOfHost(host)).toBe(provider);
      expect(providerOf(mx([host, 10]))).toBe(provider);
    });
  });

  it.each([
    'mx.example.com',
    'google.com.example.net',
    'notgoogle.com',
    'ec2-3-80-1-1.compute-1.amazonaws.com',
    'mail.mimecast.com.evil.example',
    'mx.zoho.community',
  ])('%s is other', (host) => {
    expect(providerOfHost(host)).toBeUndefined();
    expect(providerOf(mx([host, 10]))).toBe('other');
  });

  it('is named by the most preferred hosts: a gateway in front of a mailbox provider is the provider', () => {
    expect(providerOf(mx(['eu-smtp-inbound-1.mimecast.com', 10], ['aspmx.l.google.com', 20]))).toBe('mimecast');
    expect(providerOf(mx(['mx.example.com', 5], ['aspmx.l.google.com', 10]))).toBe('other');
    // One preference: a known host among them names it, whatever order DNS gave them in.
    expect(
      providerOfHosts([
        { exchange: 'mx.example.com', priority: 10 },
        { exchange: 'aspmx.l.google.com', priority: 10 },
      ]),
    ).toBe('google');
    expect(
      providerOfHosts([
        { exchange: 'mx1.qq.com', priority: 10 },
        { exchange: 'mxs.mail.ru', priority: 10 },
      ]),
    ).toBe(
      providerOfHosts([
        { exchange: 'mxs.mail.ru', priority: 10 },
        { exchange: 'mx1.qq.com', priority: 10 },
      ]),
    );
  });

  it('is other for a domain that is its own mail host (no MX), unknown without a mail host or an answer', () => {
    expect(
      providerOf({
        status: 'ok',
        hosts: [{ exchange: 'acme.example', priority: 0 }],
        implicit: { addresses: ['192.0.2.1'] },
      }),
    ).toBe('other');
    expect(providerOf({ status: 'invalid', reason: 'no_mx' })).toBe('');
    expect(providerOf({ status: 'invalid', reason: 'null_mx' })).toBe('');
    expect(providerOf({ status: 'invalid', reason: 'no_domain' })).toBe('');
    expect(providerOf({ status: 'unknown', reason: 'dns_unavailable', code: 'ETIMEOUT' })).toBe('');
    expect(providerOf(undefined)).toBe('');
    expect(providerOfHosts([])).toBe('');
  });
});
