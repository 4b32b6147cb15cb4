// The mail providers `email_provider` names, each with the MX host names that give it away (test/verify/
// provider.test.ts holds an example host for each). A pattern matches that host and every host under it; a `*`
// label stands for any one label. Sources: each provider's own setup pages for custom domains (Google Workspace,
// Microsoft 365, Zoho, Proton, Fastmail, Amazon SES receiving, Mimecast, Proofpoint, Barracuda) and the MX records
// its own free-mail domains publish (gmail.com, outlook.com, yahoo.com, icloud.com, gmx.net, yandex.ru, mail.ru,
// qq.com).

export const PROVIDER_HOSTS = {
  // Gmail and Google Workspace: aspmx.l.google.com, alt1.aspmx.l.google.com, smtp.google.com, aspmx2.googlemail.com.
  google: ['google.com', 'googlemail.com'],
  // Microsoft 365 (contoso-com.mail.protection.outlook.com) and outlook.com (*.olc.protection.outlook.com).
  microsoft: ['outlook.com', 'hotmail.com'],
  // Yahoo and AOL (mta5.am0.yahoodns.net, mx-aol.mail.gm0.yahoodns.net).
  yahoo: ['yahoodns.net', 'yahoo.com'],
  // iCloud Mail, custom domains too (mx01.mail.icloud.com).
  apple: ['icloud.com'],
  zoho: ['zoho.com', 'zoho.eu', 'zoho.in', 'zoho.com.au', 'zoho.jp', 'zohocloud.ca', 'zoho.sa', 'zohomail.com'],
  proton: ['protonmail.ch', 'proton.me'],
  // Fastmail's inbound hosts (in1-smtp.messagingengine.com).
  fastmail: ['messagingengine.com', 'fastmail.com'],
  gmx: ['gmx.net', 'gmx.com', 'gmx.de'],
  yandex: ['yandex.net', 'yandex.ru'],
  mailru: ['mail.ru'],
  qq: ['qq.com'],
  // Amazon SES receiving (and WorkMail): inbound-smtp.REGION.amazonaws.com, never EC2's other host names.
  amazon: ['inbound-smtp.*.amazonaws.com', 'inbound-smtp.*.amazonaws.com.cn'],
  mimecast: ['mimecast.com', 'mimecast.co.za', 'mimecast-offshore.com'],
  // Proofpoint (mx0a-00123456.pphosted.com) and Proofpoint Essentials (mx1-us1.ppe-hosted.com).
  proofpoint: ['pphosted.com', 'ppe-hosted.com'],
  // Barracuda Email Security Service (d123.a.ess.barracudanetworks.com).
  barracuda: ['barracudanetworks.com'],
} as const satisfies Record<string, readonly string[]>;

export type KnownProvider = keyof typeof PROVIDER_HOSTS;

/** `other`: a domain with a mail host none of the patterns knows. */
export type Provider = KnownProvider | 'other';

/** Every value `email_provider` takes but empty (unknown), in the order `clean --help` lists them. */
export const PROVIDERS: readonly Provider[] = [...(Object.keys(PROVIDER_HOSTS) as KnownProvider[]), 'other'];
