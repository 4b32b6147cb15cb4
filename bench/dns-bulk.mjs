#!/usr/bin/env node
// The baseline of bench/dns-latency.mjs: a plain bulk resolver asking the MX question of each domain in a file (one a
// line) of one DNS server: node's Resolver (c-ares), 256 queries in flight, a 2 s timeout and 2 tries.
// `node bench/dns-bulk.mjs SERVER DOMAINS_FILE`; prints {answered, unanswered, other} on stdout.
import { Resolver } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import pLimit from 'p-limit';

const [server, file] = process.argv.slice(2);
const domains = readFileSync(file, 'utf8').split('\n').filter(Boolean);
const resolver = new Resolver({ timeout: 2000, tries: 2 });
resolver.setServers([server]);
const limit = pLimit(256);
const counts = { answered: 0, unanswered: 0, other: 0 };
await Promise.all(
  domains.map((domain) =>
    limit(() =>
      resolver.resolveMx(domain).then(
        () => counts.answered++,
        (err) => {
          if (err.code === 'ENOTFOUND' || err.code === 'ENODATA') counts.answered++;
          else if (err.code === 'ETIMEOUT') counts.unanswered++;
          else counts.other++;
        },
      ),
    ),
  ),
);
console.log(JSON.stringify(counts));
