// `mailclean verify ADDRESS...`: a few addresses checked now by the library's client (src/library/verify.ts); here
// are the table and the exit code (the flags are in flags/verify.ts).
import { ExitCode, UsageError } from '../errors.js';
import type { Factory } from '../factory.js';
import { renderTable } from '../io/table.js';
import { dnsConcurrencyOf } from '../library/option-checks.js';
import type { CheckOptions, VerifyResult as VerifyRow } from '../library/types.js';
import { MAX_VERIFIED } from '../library/verify.js';
import { noServiceNote, verifyNotes } from './clean/render.js';
import { VERIFY_FIELDS } from './common/json-fields.js';
import type { VerifyFlags } from './flags/verify.js';

export type { VerifyRow };

export async function verifyCommand(o: VerifyFlags, f: Factory): Promise<number> {
  if (o.addresses.length > MAX_VERIFIED)
    throw new UsageError(`verify takes at most ${MAX_VERIFIED} addresses`, 'for a list, use `mailclean clean FILE`');
  const verify = await verifier(f, {
    local: o.local,
    precheck: o.precheck,
    dnsServers: o.dnsServer,
    dnsConcurrency: dnsConcurrencyOf(o.dnsConcurrency, '--dns-concurrency'),
    dnsTimeout: o.dnsTimeout,
    caseSensitive: o.caseSensitive,
    maxAge: o.maxAge,
  });
  const rows = await verify(o.addresses);
  if (o.json !== undefined) f.io.json(rows, o.json, VERIFY_FIELDS);
  else f.io.out(render(f, rows));
  if (f.io.signals.received) return f.io.signals.exitCode;
  return exitCodeOf(rows);
}

/** The library's verify as commands call it (`verify`, `review --check`): stopped by Ctrl-C, its events told. */
export async function verifier(
  f: Factory,
  checks: CheckOptions,
): Promise<(addresses: string[]) => Promise<VerifyRow[]>> {
  const { whoChecks } = await import('../library/checker.js');
  (await f.profile()).requireKnown();
  const client = await f.client();
  if (whoChecks(await client.settings(), checks) === 'engine' && !checks.local) noServiceNote(f);
  const { stop, abort } = f.io.signals;
  return (addresses) => client.verify(addresses, { ...checks, signal: stop, abandon: abort, onEvent: verifyNotes(f) });
}

const COLOURS: Record<string, 'green' | 'red' | 'yellow'> = { valid: 'green', invalid: 'red', risky: 'yellow' };

function render(f: Factory, rows: VerifyRow[]): string {
  const { style } = f.io;
  const paint = (status: string) => (Object.hasOwn(COLOURS, status) ? style[COLOURS[status]!](status) : status);
  const why = (r: VerifyRow) =>
    [
      r.reason,
      r.suggestion ? `did you mean ${r.suggestion}?` : '',
      r.free ? 'free-mail provider' : '',
      r.role && r.reason !== 'role' ? 'role address' : '',
      r.provider ? `provider ${r.provider}` : '',
      r.fromCache ? 'from the cache' : '',
    ]
      .filter(Boolean)
      .join('; ');
  return renderTable(
    ['ADDRESS', 'STATUS', 'WHY'],
    rows.map((r) => [r.address, paint(r.status), why(r)]),
    f.io.isStdoutTTY,
  );
}

/** For scripts: 0 all valid, 5 any invalid or risky, 3 any without a definite answer. */
function exitCodeOf(rows: VerifyRow[]): number {
  if (rows.some((r) => r.status === 'invalid' || r.status === 'risky')) return ExitCode.threshold;
  if (rows.some((r) => r.status !== 'valid')) return ExitCode.partial;
  return ExitCode.ok;
}
