// Internationalised domains judged alike on every supported Node: Node 22's domainToASCII refused bad Punycode,
// Node 24's passes it through, so the syntax check must not lean on either.
import { describe, expect, it } from 'vitest';
import { checkSyntax } from '../../src/verify/syntax.js';

const CASES: Array<[string, string, string]> = [
  // [domain, expected verdict, what it shows]
  ['bücher.de', 'xn--bcher-kva.de', 'a U-label becomes its A-label'],
  ['münchen.de', 'xn--mnchen-3ya.de', 'umlaut'],
  ['faß.de', 'xn--fa-hia.de', 'sharp s kept (UTS #46 nontransitional, as browsers)'],
  ['βόλος.com', 'xn--nxasmm1c.com', 'Greek, final sigma kept (nontransitional)'],
  ['💩.la', 'xn--ls8h.la', 'emoji label'],
  ['ＡＢＣ.com', 'abc.com', 'full-width letters mapped'],
  ['xn--bcher-kva.de', 'xn--bcher-kva.de', 'a valid A-label kept'],
  ['XN--MNCHEN-3YA.DE', 'xn--mnchen-3ya.de', 'an A-label in capitals'],
  ['xn--80ak6aa92e.com', 'xn--80ak6aa92e.com', 'a Cyrillic look-alike is still valid syntax'],
  ['xn--a.com', 'label_invalid', 'Punycode that decodes to nothing'],
  ['xn--zz.com', 'label_invalid', 'Punycode that does not decode'],
  ['xn---.com', 'label_invalid', 'an empty Punycode payload'],
  ['xn--bcher-kva.xn--', 'label_invalid', 'a bad A-label as the TLD'],
  ['xn--abc-.com', 'label_invalid', 'Punycode of plain ASCII is not an A-label'],
  ['a\u200db.com', 'domain_invalid', 'a zero-width joiner where it is not allowed'],
  ['ex ample.com', 'label_invalid', 'a space'],
];

describe(`internationalised domains (Node ${process.versions.node})`, () => {
  it.each(CASES)('%s → %s (%s)', (domain, expected) => {
    const result = checkSyntax(`user@${domain}`);
    expect(result.ok ? result.domain : result.reason).toBe(expected);
  });
});
