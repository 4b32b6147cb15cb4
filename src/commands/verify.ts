// `mailclean verify ADDRESS...`: one or a few addresses checked now, by the cleaning service when signed in (its
// answers go to the account's cache and come from it) or by the built-in engine; a verdict per line, or --json.
// The library's client checks them (src/library/verify.ts); here are the flags, the table and the exit code.
import type { Command } from '@commander-js/extra-typings';
import { ExitCode, UsageError } from '../errors.js';
import type { Factory } from '../factory.js';
import type { JsonFlag } from '../io/json.js';
import { renderTable } from '../io/table.js';
import type { VerifyResult as VerifyRow } from '../library/types.js';
import { MAX_ADDRESSES, VERIFY_FIELDS } from '../library/verify.js';
import { cliClient, engineSettings, whoChecks } from './clean/choose-checker.js';
import { precheckNote } from './clean/render.js';
import { jsonOption } from './common/inputs.js';
import type { Runner } from './index.js';

export type { VerifyRow };
export { VERIFY_FIELDS };

export function define(cmd: Command, run: Runner): void {
  cmd
    .argument('<address...>', 'the addresses to check')
    .option('--local', 'check with the built-in engine (syntax, lists, DNS) even when signed in: nothing is spent')
    .option(
      '--max-age <duration>',
      'take an answer the service gave within this time from the cache (0: ask again)',
      '30d',
    )
    .option('--no-precheck', 'signed in: send every address, without first deciding for free what DNS and lists can')
    .option(
      '--dns-server <ip[:port],…>',
      'built-in engine and precheck: DNS servers to ask (default: the system resolver)',
    )
    .addOption(jsonOption())
    .addHelpText(
      'after',
      `
Signed in to a cleaning service, each address not answered within --max-age costs one of the month's
allowance; its answer is kept in the account's cache (\`mailclean cache\`), as \`clean\` does. First, as in
\`clean\`, the precheck decides for free what DNS and lists can (a domain that does not exist or takes no mail, a
disposable or mistyped one): those are not sent (checker "precheck"). Otherwise, or with --local, the built-in
engine checks it in-process, for free.

Exit codes: 0 every address is valid, 5 at least one is invalid or risky, 3 at least one has no definite
answer (unknown, or unchecked: allowance, service errors) and none is invalid or risky, 2 bad flags,
4 not signed in, 1 an error.

JSON fields: ${VERIFY_FIELDS.join(', ')}

Examples:
  mailclean verify ada@example.com
  mailclean verify --local ada@example.com bob@exmaple.com --json
  mailclean verify "$ADDRESS" >/dev/null && echo deliverable`,
    )
    .action(run((f, opts, [addresses]) => verify({ ...opts, addresses }, f)));
}

export interface VerifyOptions {
  addresses: string[];
  local?: boolean;
  maxAge: string;
  dnsServer?: string;
  /** Signed in: decide for free what the built-in engine can before paying (--no-precheck: send everything). */
  precheck?: boolean;
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
