#!/usr/bin/env node
import { once } from 'node:events';
// Writes a realistic mailing-list CSV for benchmarks: `node bench/gen-csv.mjs ROWS PATH [SEED] [DOMAINS]`.
// With DOMAINS, addresses spread over that many domains d0.bench, d1.bench, ... (for a DNS server of the bench's own).
// Mailchimp-like columns, some quoted fields (commas, doubled quotes, the odd line break), non-ASCII names,
// blank and malformed addresses, and duplicates that differ in the case of the domain. Deterministic per seed.
import { createWriteStream } from 'node:fs';
import { mulberry32 } from '../dist/sandbox/faults.js';

const [rowsArg, path, seedArg, domainsArg] = process.argv.slice(2);
const rows = Number(rowsArg);
if (!Number.isInteger(rows) || rows < 0 || !path) {
  console.error('usage: node bench/gen-csv.mjs ROWS PATH [SEED] [DOMAINS]');
  process.exit(2);
}

const rand = mulberry32(Number(seedArg ?? 1));
const pick = (xs) => xs[Math.floor(rand() * xs.length)];

const first = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'Zoë',
  'Łukasz',
  'José',
  'François',
  'Søren',
  'Ana',
  'Mohammed',
  'Wei',
  'Yuki',
  'Olga',
  '太郎',
  'Ngozi',
];
const last = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'García',
  'Miller',
  'Davis',
  'Müller',
  'Kowalski',
  "O'Brien",
  'Nguyen',
  '山田',
  'Dubois',
  'Rossi',
  'Andersson',
  'Okafor',
  'Ivanova',
  'Silva',
  'Kim',
];
const providers = [
  'gmail.com',
  'yahoo.com',
  'outlook.com',
  'hotmail.com',
  'icloud.com',
  'proton.me',
  'example.com',
  'acme.io',
  'mail.ru',
  'web.de',
  'orange.fr',
  'company.co.uk',
];
const domains = domainsArg ? Array.from({ length: Number(domainsArg) }, (_, k) => `d${k}.bench`) : providers;
const companies = [
  'Acme Corp',
  'Globex, Inc.',
  'Initech',
  'Umbrella "Bio" Labs',
  'Stark Industries',
  'Wayne Enterprises',
  '',
  'Hooli',
  'Vandelay Industries',
  'Soylent, Ltd.',
];
const cities = ['London', 'Paris', 'Berlin', 'New York', 'São Paulo', 'Kraków', 'Tokyo', 'Lagos', 'Toronto', 'Zürich'];
const countries = ['GB', 'FR', 'DE', 'US', 'BR', 'PL', 'JP', 'NG', 'CA', 'CH'];
const tags = ['', 'newsletter', 'customer', 'vip', 'newsletter,customer', 'trial', 'webinar-2024'];

const quote = (v) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
const ascii = (s) =>
  s
    .normalize('NFKD')
    .replace(/[^a-zA-Z]/g, '')
    .toLowerCase() || 'user';

function row(i) {
  const f = pick(first);
  const l = pick(last);
  let email;
  const r = rand();
  if (r < 0.02) email = '';
  else if (r < 0.03) email = pick(['bob@', '@example.com', 'a b@example.com', 'x@y', 'no-at-sign.example.com']);
  else if (r < 0.08)
    email = `user${Math.floor(rand() * i + 1)}@Example.COM`; // a duplicate, domain in other case
  else email = `${ascii(f)}.${ascii(l)}${i}@${pick(domains)}`;
  if (rand() < 0.05) email = ` ${email} `;
  const month = String(1 + Math.floor(rand() * 12)).padStart(2, '0');
  const day = String(1 + Math.floor(rand() * 28)).padStart(2, '0');
  const notes =
    rand() < 0.01 ? 'Met at the fair.\nWants the "pro" plan' : rand() < 0.1 ? 'Prefers email, not phone' : '';
  return [
    quote(email),
    quote(f),
    quote(l),
    quote(pick(companies)),
    quote(pick(cities)),
    pick(countries),
    `+44 20 7946 ${String(Math.floor(rand() * 10000)).padStart(4, '0')}`,
    `2024-${month}-${day} 10:${month}:${day}`,
    quote(pick(tags)),
    quote(notes),
  ].join(',');
}

const out = createWriteStream(path);
out.write('Email Address,First Name,Last Name,Company,City,Country,Phone Number,OPTIN_TIME,TAGS,NOTES\n');
let buf = [];
for (let i = 1; i <= rows; i++) {
  buf.push(row(i));
  if (buf.length === 5000 || i === rows) {
    if (!out.write(`${buf.join('\n')}\n`)) await once(out, 'drain');
    buf = [];
  }
}
out.end();
await once(out, 'finish');
