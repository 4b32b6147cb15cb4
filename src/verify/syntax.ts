import { isIPv6 } from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';

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
  | 'tld_missing'
  | 'ip_literal'
  | 'ip_literal_invalid'
  | 'too_long';

export type SyntaxResult =
  | {
      ok: true;
      local: string;
      domain: string;
      /** The local part has non-ASCII characters: the server must support SMTPUTF8 (RFC 6531). */
      smtputf8: boolean;
      ip?: string;
    }
  | { ok: false; reason: SyntaxReason };

export interface SyntaxOptions {
  /** Accept `user@[192.0.2.1]` (RFC 5321 address literals); off by default, as most senders refuse them. */
  allowIpLiteral?: boolean;
  /** Trim white space first (default true); `false` judges the exact string, as an SMTP server would. */
  trim?: boolean;
}

/* RFC 5321 atext plus RFC 6531's non-ASCII, less controls, separators and lone surrogates no mail system carries. */
const ATOM = /^(?:[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]|[^\x00-\x7f\p{Cc}\p{Z}\p{Cs}])+$/u;
/* RFC 5321 Quoted-string: qtextSMTP (%d32-33 / %d35-91 / %d93-126), quoted-pairSMTP (backslash, %d32-126). */
const QUOTED = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|[^\x00-\x7f\p{Cc}\p{Zl}\p{Zp}\p{Cs}]|\\[\x20-\x7e])*"$/u;
/* RFC 5321 sub-domain: Let-dig [Ldh-str], at most 63 octets (RFC 1035). */
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const NON_ASCII = /[^\x00-\x7f]/;
const IPV4_LITERAL = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

// The shape nearly every real address has; such an address passes every rule below as it is.
const PLAIN =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}$/;

export function hasNonAscii(text: string): boolean {
  return NON_ASCII.test(text);
}

export function splitKey(key: string): SyntaxResult {
  const at = key.lastIndexOf('@');
  const local = key.slice(0, at);
  return { ok: true, local, domain: key.slice(at + 1), smtputf8: hasNonAscii(local) };
}

export function isPlainAddress(address: string): boolean {
  // A-labels (xn--) must also decode, which only the full check verifies.
  if (address.length > 254 || !PLAIN.test(address) || address.includes('xn--')) return false;
  const at = address.lastIndexOf('@');
  if (at > 64) return false;
  // Label length (63) is the one rule the pattern does not enforce.
  let labelStart = at + 1;
  for (let i = labelStart; i <= address.length; i++) {
    if (i === address.length || address.charCodeAt(i) === 46) {
      if (i - labelStart > 63) return false;
      labelStart = i + 1;
    }
  }
  return true;
}

/** RFC 5321's Mailbox as servers accept it in RCPT TO, with a reason for every rejection; IDNs made ASCII. */
export function checkSyntax(input: string, opts: SyntaxOptions = {}): SyntaxResult {
  const address = opts.trim === false ? input : input.trim();
  if (!isPlainAddress(address)) return checkInFull(address, opts);
  const at = address.lastIndexOf('@');
  return { ok: true, local: address.slice(0, at), domain: address.slice(at + 1), smtputf8: false };
}

/** checkSyntax without its shortcut for plain addresses (exported so tests hold the two to the same answers). */
export function checkInFull(address: string, opts: SyntaxOptions = {}): SyntaxResult {
  if (address === '') return { ok: false, reason: 'blank' };
  const at = address.lastIndexOf('@');
  if (at < 0) return { ok: false, reason: 'no_at' };
  const local = address.slice(0, at);
  const rawDomain = address.slice(at + 1);
  if (local === '') return { ok: false, reason: 'local_empty' };
  const smtputf8 = hasNonAscii(local);
  const localOctets = smtputf8 ? Buffer.byteLength(local, 'utf8') : local.length;
  if (localOctets > 64) return { ok: false, reason: 'local_too_long' };
  if (!validLocal(local)) return { ok: false, reason: 'local_invalid' };
  if (rawDomain === '') return { ok: false, reason: 'domain_empty' };

  if (rawDomain.startsWith('[')) {
    const ip = addressLiteral(rawDomain);
    if (ip === undefined) return { ok: false, reason: 'ip_literal_invalid' };
    if (!opts.allowIpLiteral) return { ok: false, reason: 'ip_literal' };
    const domain = rawDomain.toLowerCase();
    if (localOctets + 1 + domain.length > 254) return { ok: false, reason: 'too_long' };
    return { ok: true, local, domain, smtputf8, ip };
  }
  const problem = domainProblem(rawDomain);
  if (typeof problem === 'string') return { ok: false, reason: problem };
  const domain = problem.ascii;
  if (localOctets + 1 + domain.length > 254) return { ok: false, reason: 'too_long' };
  return { ok: true, local, domain, smtputf8 };
}

function validLocal(local: string): boolean {
  if (local.charCodeAt(0) === 34 /* " */) return QUOTED.test(local);
  let start = 0;
  for (;;) {
    const dot = local.indexOf('.', start);
    const atom = dot < 0 ? local.slice(start) : local.slice(start, dot);
    if (atom === '' || !ATOM.test(atom)) return false;
    if (dot < 0) return true;
    start = dot + 1;
  }
}

function domainProblem(raw: string): SyntaxReason | { ascii: string } {
  // A trailing dot names the root; mail servers treat `x.com.` as `x.com`, users rarely mean it.
  if (raw.endsWith('.')) return 'domain_invalid';
  let ascii: string;
  if (NON_ASCII.test(raw) || raw.includes('xn--') || raw.includes('XN--')) {
    // IDNA (UTS #46) as browsers do it: U-labels become A-labels, and A-labels must decode.
    ascii = domainToASCII(raw);
    if (ascii === '') return NON_ASCII.test(raw) ? 'domain_invalid' : 'label_invalid';
    if (NON_ASCII.test(ascii)) return 'domain_invalid';
    if (!ascii.split('.').every(isDecodableLabel)) return 'label_invalid';
  } else {
    ascii = raw.toLowerCase();
  }
  if (ascii.length > 253) return 'domain_too_long';
  const labels = ascii.split('.');
  if (labels.length < 2) return labels[0] === '' ? 'domain_invalid' : 'tld_missing';
  for (const label of labels) {
    if (label === '') return 'domain_invalid';
    if (label.length > 63) return 'label_too_long';
    if (!LABEL.test(label)) return 'label_invalid';
  }
  // RFC 3696 section 2: a TLD is never all-numeric (that would make `1.2.3.4` a domain name).
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return 'tld_invalid';
  return { ascii };
}

function addressLiteral(literal: string): string | undefined {
  if (!literal.endsWith(']') || literal.length < 3) return undefined;
  const inner = literal.slice(1, -1);
  const v4 = IPV4_LITERAL.exec(inner);
  if (v4) return v4.slice(1).every((n) => Number(n) <= 255) ? v4.slice(1).map(Number).join('.') : undefined;
  if (/^IPv6:/i.test(inner)) {
    const v6 = inner.slice(5);
    // As inet_pton reads it (RFC 4291 text forms); no zone identifiers.
    return /^[0-9a-f:.]+$/i.test(v6) && isIPv6(v6) ? v6.toLowerCase() : undefined;
  }
  // General-address-literal: no standardized tag besides IPv6 exists.
  return undefined;
}

/** The key two spellings of one address share: the local part's A-Z folded, as mailing platforms count subscribers. */
export function dedupeKey(local: string, domain: string, caseSensitive = false): string {
  return `${caseSensitive ? local : asciiLower(local)}@${domain}`;
}

const ASCII_UPPER = /[A-Z]/;

export function asciiLower(text: string): string {
  return ASCII_UPPER.test(text) ? text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) | 32)) : text;
}

/** An A-label must decode to a non-ASCII label that encodes back to it: Node 22 and 24 differ on bad ones. */
function isDecodableLabel(label: string): boolean {
  if (!label.startsWith('xn--')) return true;
  const unicode = domainToUnicode(label);
  return unicode !== label && NON_ASCII.test(unicode) && domainToASCII(unicode) === label;
}
