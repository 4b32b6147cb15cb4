// The accepted fixes of a list checked as `verify` checks addresses (the account's cache first, each address paid
// once; the built-in engine without a service), and each verdict written into its row.
import { join } from 'node:path';
import type { Factory } from '../../factory.js';
import type { VerifyResult } from '../../library/types.js';
import { MAX_VERIFIED } from '../../library/verify.js';
import { verdictsChange } from '../../review/changes.js';
import { fixedRows, openList } from '../../review/list.js';
import { rewriteList } from '../../review/rewrite.js';
import type { ReviewFlags } from '../flags/review.js';
import { verifier } from '../verify.js';

/** `rows`: the rows to check and their fixes; every row with an email_fixed address when not given. */
export async function checkFixes(f: Factory, o: ReviewFlags, rows?: ReadonlyMap<number, string>): Promise<number> {
  const layout = await openList({ path: o.file, spoolDir: join(f.dataDir, 'spool'), column: o.column });
  try {
    const fixes = rows ?? (await fixedRows(layout));
    if (fixes.size === 0) {
      f.io.note(`${o.file}: no fix to check (email_fixed is empty in every row).`);
      return 0;
    }
    const verdicts = await verdictsOf(f, o, [...new Set(fixes.values())]);
    await rewriteList(layout, verdictsChange(fixes, verdicts, layout.header));
    f.io.note(`${o.file}: ${tally(fixes, verdicts)}; written.`);
    const unchecked = [...fixes.values()].filter((fix) => verdicts.get(fix)?.status === 'unchecked').length;
    if (unchecked > 0)
      f.io.warn(
        `${unchecked} fix${unchecked === 1 ? ' was' : 'es were'} not checked: mailclean review ${o.file} --check`,
      );
    return f.io.signals.received ? f.io.signals.exitCode : 0;
  } finally {
    await layout.cleanup();
  }
}

async function verdictsOf(f: Factory, o: ReviewFlags, addresses: string[]): Promise<Map<string, VerifyResult>> {
  const verify = await verifier(f, { local: o.local });
  const verdicts = new Map<string, VerifyResult>();
  // verify takes a few hundred at a time; the answers of one part are in the cache before the next asks.
  for (let at = 0; at < addresses.length && !f.io.signals.stop.aborted; at += MAX_VERIFIED)
    for (const result of await verify(addresses.slice(at, at + MAX_VERIFIED))) verdicts.set(result.address, result);
  return verdicts;
}

/** `checked 3 fixes: 2 valid, 1 risky (1 from the cache)`. */
function tally(fixes: ReadonlyMap<number, string>, verdicts: ReadonlyMap<string, VerifyResult>): string {
  const unique = [...new Set(fixes.values())].map((fix) => verdicts.get(fix));
  const counts = new Map<string, number>();
  for (const v of unique) counts.set(v?.status ?? 'unchecked', (counts.get(v?.status ?? 'unchecked') ?? 0) + 1);
  const cached = unique.filter((v) => v?.fromCache).length;
  const parts = [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
  return `checked ${unique.length} fix${unique.length === 1 ? '' : 'es'}: ${parts}${cached ? ` (${cached} from the cache)` : ''}`;
}
