import { domainToASCII } from 'node:url';

export type SyntaxReason =
  | 'blank'
  | 'no_at'
  | 'local_empty'
  | 'local_too_long'
  | 'local_invalid'
  | 'domain_empty'
  | 'domain_too_long'
  | 'domain_invalid'
  | 'label_invalid'
  | 'label_too_long'
  | 'tld_invalid'
  | 'ip_literal'
  | 'too_long';

export type SyntaxResult =
  | {
      ok: true;
      /** Local part as given. */
      local: string;
      /** Domain in ASCII (IDN converted), lower case. */
      domain: string;
      /** The local part has non-ASCII characters: the server must support SMTPUTF8. */
      smtputf8: boolean;
    }
  | { ok: false; reason: SyntaxReason };

export interface SyntaxOptions {
  /** Accept `user@[192.0.2.1]` (RFC 5321 address literals); off by default, as most senders refuse them. */
  allowIpLiteral?: boolean;
}

// RFC 5322 atext, plus any non-ASCII character (RFC 6531 extends atext with UTF-8).
const ATEXT = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~\u0080-\u{10FFFF}]+$/u;
const QUOTED = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e\u0080-\u{10FFFF}]|\\[\x20-\x7e])*"$/u;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** The addr-spec of RFC 5321/5322 as mail servers accept it, with a reason for every rejection. */
export function checkSyntax(input: string, opts: SyntaxOptions = {}): SyntaxResult {
  const address = input.trim();
  if (address === '') return { ok: false, reason: 'blank' };
  const at = address.lastIndexOf('@');
  if (at < 0) return { ok: false, reason: 'no_at' };
  const local = address.slice(0, at);
  const rawDomain = address.slice(at + 1);
  if (local === '') return { ok: false, reason: 'local_empty' };
  if (Buffer.byteLength(local, 'utf8') > 64) return { ok: false, reason: 'local_too_long' };
  if (!validLocal(local)) return { ok: false, reason: 'local_invalid' };
  if (rawDomain === '') return { ok: false, reason: 'domain_empty' };

  let domain: string;
  if (rawDomain.startsWith('[')) {
    if (!opts.allowIpLiteral) return { ok: false, reason: 'ip_literal' };
    if (!validAddressLiteral(rawDomain)) return { ok: false, reason: 'domain_invalid' };
    domain = rawDomain.toLowerCase();
  } else {
    const problem = domainProblem(rawDomain);
    if (typeof problem === 'string') return { ok: false, reason: problem };
    domain = problem.ascii;
  }
  if (Buffer.byteLength(local, 'utf8') + 1 + domain.length > 254) return { ok: false, reason: 'too_long' };
  return { ok: true, local, domain, smtputf8: /[^\x00-\x7f]/.test(local) };
}

function validLocal(local: string): boolean {
  if (local.startsWith('"')) return QUOTED.test(local);
  // dot-atom: atoms separated by single dots, none at either end.
  return local.split('.').every((atom) => atom !== '' && ATEXT.test(atom));
}

function domainProblem(raw: string): SyntaxReason | { ascii: string } {
  // A trailing dot names the root; mail servers treat `x.com.` as `x.com`, users rarely mean it.
  if (raw.endsWith('.')) return 'domain_invalid';
  const ascii = /[^\x00-\x7f]/.test(raw) ? domainToASCII(raw) : raw.toLowerCase();
  if (ascii === '') return 'domain_invalid';
  if (ascii.length > 253) return 'domain_too_long';
  const labels = ascii.split('.');
  if (labels.length < 2) return 'domain_invalid';
  for (const label of labels) {
    if (label.length > 63) return 'label_too_long';
    if (!LABEL.test(label)) return 'label_invalid';
  }
  const tld = labels.at(-1)!;
  // A TLD is letters, or an IDN A-label; all-numeric would make it an IP address.
  if (!/^[a-z]{2,63}$/.test(tld) && !/^xn--[a-z0-9-]{1,59}$/.test(tld)) return 'tld_invalid';
  return { ascii };
}

function validAddressLiteral(literal: string): boolean {
  if (!literal.endsWith(']')) return false;
  const inner = literal.slice(1, -1);
  if (IPV4.test(inner)) return true;
  if (/^IPv6:/i.test(inner)) {
    const v6 = inner.slice(5);
    return /^[0-9a-f:.]+$/i.test(v6) && v6.includes(':');
  }
  return false;
}

/**
 * The key two spellings of one mailbox share: the local part exactly (it may be case-sensitive),
 * the domain in lower-case ASCII.
 */
export function dedupeKey(local: string, domain: string): string {
  return `${local}@${domain}`;
}
