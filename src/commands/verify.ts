// `mailclean verify ADDRESS...`: one or a few addresses checked now, by the cleaning service when signed in (its
// answers go to the account's cache and come from it) or by the built-in engine; a verdict per line, or --json.
// The library's client checks them (src/library/verify.ts); here are the table and the exit code (the flags are in
// flags/verify.ts).
import { ExitCode, UsageError } from '../errors.js';
import type { Factory } from '../factory.js';
import type { JsonFlag } from '../io/json.js';
import { renderTable } from '../io/table.js';
import type { VerifyResult as VerifyRow } from '../library/types.js';
import { MAX_ADDRESSES } from '../library/verify.js';
import { cliClient, engineSettings, whoChecks } from './clean/choose-checker.js';
import { precheckNote } from './clean/render.js';
import { VERIFY_FIELDS } from './common/json-fields.js';

export type { VerifyRow };

export interface VerifyOptions {
  addresses: string[];
  local?: boolean;
  maxAge: string;
  dnsServer?: string;
  /** Signed in: decide for free what the built-in engine can before paying (--no-precheck: send everything). */
  precheck?: boolean;
  caseSensitive?: boolean;
  json?: JsonFlag;
}

export async function verify(o: VerifyOptions, f: Factory): Promise<number> {
  if (o.addresses.length > MAX_ADDRESSES)
    throw new UsageError(`verify takes at most ${MAX_ADDRESSES} addresses`, 'for a list, use `mailclean clean FILE`');
  const { maxAgeOf } = await import('../library/clean-options.js');
  const maxAgeMs = maxAgeOf(o.maxAge, '--max-age');
  (await f.profile()).requireKnown();
  const precheck = o.precheck ?? true;
  const engine = {
    smtp: false,
    smtpPort: 25,
    dnsServers: o.dnsServer,
    given: o.dnsServer !== undefined && !precheck ? '--dns-server' : undefined,
  };
  const who = await whoChecks(f, { local: o.local ?? false, engine });
  // A bad --dns-server is named as such before the client reads the same list.
  await engineSettings({ engine }, f.io.env);
  const client = await cliClient(f);
  let rows: VerifyRow[];
  try {
    rows = await client.verify(o.addresses, {
      local: who === 'engine',
      precheck,
      caseSensitive: o.caseSensitive,
      maxAge: maxAgeMs,
      dnsServers: o.dnsServer,
      signal: f.io.signals.stop,
      abandon: f.io.signals.abort,
      onEvent: (event) => {
        if (event.type === 'warning') f.io.warn(event.message);
        else if (event.type === 'precheck') precheckNote(f, event.outcome);
        else f.io.debug(event.message);
      },
    });
  } finally {
    await client.close();
  }
  if (o.json !== undefined) f.io.json(rows, o.json, VERIFY_FIELDS);
  else f.io.out(render(f, rows));
  if (f.io.signals.received) return f.io.signals.exitCode;
  return exitCodeOf(rows);
}

function render(f: Factory, rows: VerifyRow[]): string {
  const { style } = f.io;
  const paint = (status: string) =>
    status === 'valid'
      ? style.green(status)
      : status === 'invalid'
        ? style.red(status)
        : status === 'risky'
          ? style.yellow(status)
          : status;
  const why = (r: VerifyRow) =>
    [
      r.reason,
      r.suggestion ? `did you mean ${r.suggestion}?` : '',
      r.free ? 'free-mail provider' : '',
      r.role && r.reason !== 'role' ? 'role address' : '',
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
