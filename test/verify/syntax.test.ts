import { describe, expect, it } from 'vitest';
import { checkSyntax, dedupeKey } from '../../src/verify/syntax.js';

const reason = (address: string, opts = {}) => {
  const r = checkSyntax(address, opts);
  return r.ok ? 'ok' : r.reason;
};

describe('checkSyntax', () => {
  it('accepts dot-atom and quoted local parts', () => {
    expect(checkSyntax('John.Smith+tag@Example.COM')).toEqual({
      ok: true,
      local: 'John.Smith+tag',
      domain: 'example.com',
      smtputf8: false,
    });
    expect(reason('"john..doe"@example.org')).toBe('ok');
    expect(reason('"with space"@example.org')).toBe('ok');
    expect(reason('"quote\\"inside"@example.org')).toBe('ok');
    expect(reason("o'brien@example.ie")).toBe('ok');
  });

  it('gives a reason for every kind of rejection', () => {
    expect(reason('   ')).toBe('blank');
    expect(reason('plainaddress')).toBe('no_at');
    expect(reason('@example.com')).toBe('local_empty');
    expect(reason(`${'a'.repeat(65)}@example.com`)).toBe('local_too_long');
    expect(reason('john..doe@example.com')).toBe('local_invalid');
    expect(reason('.john@example.com')).toBe('local_invalid');
    expect(reason('john.@example.com')).toBe('local_invalid');
    expect(reason('jo hn@example.com')).toBe('local_invalid');
    expect(reason('a"b@example.com')).toBe('local_invalid');
    expect(reason('john@')).toBe('domain_empty');
    expect(reason(`a@${'abcdefghi.'.repeat(26)}com`)).toBe('domain_too_long');
    expect(reason('john@example..com')).toBe('domain_invalid');
    expect(reason('john@example.com.')).toBe('domain_invalid');
    expect(reason('john@-example.com')).toBe('label_invalid');
    expect(reason('john@exa_mple.com')).toBe('label_invalid');
    expect(reason(`john@${'a'.repeat(64)}.com`)).toBe('label_too_long');
    expect(reason('john@example.123')).toBe('tld_invalid');
    expect(reason('john@localhost')).toBe('tld_missing');
    expect(reason('john@[192.0.2.1]')).toBe('ip_literal');
    expect(reason('john@[192.0.2.256]', { allowIpLiteral: true })).toBe('ip_literal_invalid');
    expect(reason(`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`)).toBe('too_long');
  });

  it('keeps the 64-octet local part and 254-octet address limits exactly', () => {
    expect(reason(`${'a'.repeat(64)}@example.com`)).toBe('ok');
    const domain = `${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`; // 189 octets
    expect(reason(`${'a'.repeat(64)}@${domain}`)).toBe('ok'); // 254
    expect(reason(`${'a'.repeat(64)}@${domain}x`)).toBe('too_long'); // 255
    // Octets, not characters: 22 three-octet characters are 66 octets.
    expect(reason(`${'δοκ'.repeat(11)}@example.com`)).toBe('local_too_long');
  });

  it('converts IDN domains to ASCII and flags non-ASCII local parts as SMTPUTF8', () => {
    expect(checkSyntax('info@Bücher.de')).toEqual({
      ok: true,
      local: 'info',
      domain: 'xn--bcher-kva.de',
      smtputf8: false,
    });
    expect(checkSyntax('用户@例子.广告')).toMatchObject({ ok: true, domain: 'xn--fsqu00a.xn--4rr70v', smtputf8: true });
    expect(checkSyntax('josé@example.com')).toMatchObject({ ok: true, smtputf8: true });
    expect(checkSyntax('test@xn--hxajbheg2az3al.xn--jxalpdlp')).toMatchObject({ ok: true });
    // An A-label that does not decode.
    expect(reason('test@xn--a.com')).toBe('label_invalid');
    // Control characters and spaces are never part of an unquoted local part.
    expect(reason('a\u0085b@example.com')).toBe('local_invalid');
    expect(reason('a\u00a0b@example.com')).toBe('local_invalid');
  });

  it('accepts RFC 5321 address literals only by option', () => {
    expect(checkSyntax('postmaster@[192.0.2.1]', { allowIpLiteral: true })).toEqual({
      ok: true,
      local: 'postmaster',
      domain: '[192.0.2.1]',
      smtputf8: false,
      ip: '192.0.2.1',
    });
    expect(checkSyntax('postmaster@[IPv6:2001:db8::1]', { allowIpLiteral: true })).toMatchObject({
      ok: true,
      ip: '2001:db8::1',
    });
    expect(reason('postmaster@[IPv6:2001:db8::1]')).toBe('ip_literal');
    expect(reason('postmaster@[IPv6:2001:db8::g]', { allowIpLiteral: true })).toBe('ip_literal_invalid');
    expect(reason('postmaster@[IPv6:fe80::1%eth0]', { allowIpLiteral: true })).toBe('ip_literal_invalid');
    expect(reason('postmaster@[tag:content]', { allowIpLiteral: true })).toBe('ip_literal_invalid');
  });

  it('trims surrounding white space unless told not to', () => {
    expect(reason('  ann@example.com \n')).toBe('ok');
    expect(reason('  ann@example.com', { trim: false })).toBe('local_invalid');
    expect(reason('ann@example.com\r\n', { trim: false })).toBe('label_invalid');
  });

  it('builds the dedupe key from the local part, A-Z in lower case unless case-sensitive, and the ASCII domain', () => {
    const a = checkSyntax('Ann@Bücher.DE');
    expect(a.ok && dedupeKey(a.local, a.domain)).toBe('ann@xn--bcher-kva.de');
    expect(a.ok && dedupeKey(a.local, a.domain, true)).toBe('Ann@xn--bcher-kva.de');
  });
});
