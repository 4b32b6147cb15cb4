#!/usr/bin/env node
// Typo suggestions against mailcheck (what most sign-up forms run) on the same generated corpus: keyboard slips of
// the domains lists hold most, mixed with correct addresses (those domains, real look-alikes, companies' domains).
// Per corpus: the share of typos given the intended address, the share of suggestions that are right, and how many
// correct addresses got a suggestion. Targets (issue 53): >= 95%, >= 99%, none.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { typoCorpus } from '../test/helpers/typo-corpus.mjs';
import { root } from './lib.mjs';

const { suggest } = await import(join(root, 'dist', 'library', 'index.js'));
const { isKnown } = await import(join(root, 'dist', 'verify', 'typo.js'));
const { TARGET_DOMAINS, REAL_LOOK_ALIKES } = await import(join(root, 'dist', 'verify', 'typo-domains.js'));
const { FREE_PROVIDERS } = await import(join(root, 'dist', 'verify', 'lists.js'));
const mailcheck = createRequire(import.meta.url)('mailcheck');

const suggesters = {
  mailclean: suggest,
  // mailcheck as a form runs it, with its default domains: the full address it suggests, or undefined.
  mailcheck: (email) => mailcheck.run({ email, suggested: (s) => s.full, empty: () => undefined }),
};

function score(corpus, suggestOf) {
  let found = 0;
  let given = 0;
  let right = 0;
  const kinds = {};
  for (const { address, intended, kind } of corpus.typos) {
    const suggestion = suggestOf(address);
    const tally = (kinds[kind] ??= { found: 0, all: 0 });
    tally.all++;
    if (suggestion === undefined) continue;
    given++;
    if (suggestion === intended) {
      right++;
      found++;
      tally.found++;
    }
  }
  const wrongly = corpus.correct.filter((address) => suggestOf(address) !== undefined);
  return { found: found / corpus.typos.length, right: given ? right / given : 1, wrongly, kinds };
}

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const corpora = [
  ['top 30, seed 1', { meant: TARGET_DOMAINS.slice(0, 30), seed: 1 }],
  ['top 30, seed 2', { meant: TARGET_DOMAINS.slice(0, 30), seed: 2 }],
  [`all ${TARGET_DOMAINS.length} targets, seed 1`, { meant: TARGET_DOMAINS, seed: 1 }],
];
let missed = false;
for (const [title, options] of corpora) {
  const corpus = typoCorpus({ ...options, realDomains: [...REAL_LOOK_ALIKES, ...FREE_PROVIDERS], isReal: isKnown });
  console.log(`\n${title}: ${corpus.typos.length} typos, ${corpus.correct.length} correct addresses`);
  console.log('| | finds the intended address | its suggestions right | correct addresses given a suggestion |');
  console.log('| --- | --- | --- | --- |');
  for (const [name, suggestOf] of Object.entries(suggesters)) {
    const { found, right, wrongly, kinds } = score(corpus, suggestOf);
    console.log(`| ${name} | ${pct(found)} | ${pct(right)} | ${wrongly.length} of ${corpus.correct.length} |`);
    const byKind = Object.entries(kinds).map(([kind, t]) => `${kind} ${t.found}/${t.all}`);
    console.error(`  ${name} by kind: ${byKind.join(', ')}`);
    if (wrongly.length) console.error(`  ${name} on correct addresses: ${wrongly.slice(0, 12).join(' ')}`);
    if (name === 'mailclean') missed ||= found < 0.95 || right < 0.99 || wrongly.length > 0;
  }
}
if (missed) {
  console.error('mailclean missed a target');
  process.exit(1);
}
