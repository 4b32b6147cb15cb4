// Rebuilds is-email.json from the two npm tarballs named in README.md (unpacked by hand; no network here).
//   node test/verify/corpus/convert.mjs <email-addresses@5.0.0 package dir> <isemail@1.2.0 package dir>
// Expected verdicts follow is_email's own default threshold: a diagnosis in the categories VALID,
// DNSWARN or RFC5321 is an address to accept; CFWS, DEPREC, RFC5322 and ERR are addresses to reject.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [eaDir, isemailDir] = process.argv.slice(2);
if (!eaDir || !isemailDir) throw new Error('usage: convert.mjs <email-addresses dir> <isemail dir>');

const decode = (s) =>
  s
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
// The XML shows control characters as U+2400 + their code (its note 1).
const controls = (s) => s.replace(/[\u2400-\u241f]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x2400));
const field = (body, name) => {
  const m = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(body);
  return m ? decode(m[1]) : undefined;
};

const ACCEPT = new Set(['ISEMAIL_VALID_CATEGORY', 'ISEMAIL_DNSWARN', 'ISEMAIL_RFC5321']);
const xml = readFileSync(join(eaDir, 'test/tests.xml'), 'utf8');
const entries = [];
const seen = new Set();
for (const m of xml.matchAll(/<test id="(\d+)">([\s\S]*?)<\/test>/g)) {
  const body = m[2];
  const address = controls(field(body, 'address') ?? '');
  const category = field(body, 'category');
  const diagnosis = field(body, 'diagnosis');
  if (seen.has(address)) {
    // The XML repeats one address (#50 and #103): kept once, both ids named.
    const first = entries.find((e) => e.address === address);
    first.source = first.source.replace(' (npm', ` = #${m[1]} (npm`);
    continue;
  }
  seen.add(address);
  entries.push({
    address,
    expect: ACCEPT.has(category) ? 'valid' : 'invalid',
    source: `is_email tests.xml 3.04 #${m[1]} (npm email-addresses@5.0.0 test/tests.xml)`,
    diagnosis,
    ...(field(body, 'comment') ? { note: field(body, 'comment').replace(/\s+/g, ' ').trim() } : {}),
  });
}

// isemail@1.2.0 (hapi's port) ships its own list with camel-case diagnoses; only addresses not above are added.
const isemailCategory = (d) =>
  d === 'valid' || d.startsWith('dnsWarn') || d.startsWith('rfc5321') ? 'valid' : 'invalid';
const json = JSON.parse(readFileSync(join(isemailDir, 'test/tests.json'), 'utf8'));
json.forEach(([address, diagnosis], i) => {
  if (seen.has(address)) return;
  seen.add(address);
  entries.push({
    address,
    expect: isemailCategory(diagnosis),
    source: `isemail@1.2.0 test/tests.json entry ${i + 1}`,
    diagnosis,
  });
});

writeFileSync(new URL('./is-email.json', import.meta.url), `${JSON.stringify(entries, null, 1)}\n`);
console.log(`${entries.length} entries`);
