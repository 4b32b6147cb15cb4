import type { Command } from '@commander-js/extra-typings';
import { VERIFY_FIELDS } from '../common/json-fields.js';
import { jsonOption } from '../common/options.js';
import type { Runner } from '../index.js';

function declareFlags(cmd: Command) {
  return cmd
    .argument('<address...>', 'the addresses to check')
    .option('--local', 'check with the built-in engine (syntax, lists, DNS) even when signed in: nothing is spent')
    .option(
      '--max-age <duration>',
      'take an answer the service gave within this time from the cache (0: ask again)',
      '30d',
    )
    .option('--no-precheck', 'signed in: send every address, without first deciding for free what DNS and lists can')
    .option('--case-sensitive', 'tell local parts apart by the case of their letters (by default Ann@ is ann@)')
    .option(
      '--dns-server <ip[:port],…>',
      'built-in engine and precheck: DNS servers to ask (default: the system resolver)',
    )
    .option('--dns-concurrency <n>', 'built-in engine and precheck: domains looked up at once (default: learned)')
    .option(
      '--dns-timeout <duration>',
      'built-in engine and precheck: how long a DNS query waits before it is asked again, e.g. 500ms or 2s (default: learned)',
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
    );
}

/** The flags as commander parsed them, with the addresses given. */
export type VerifyFlags = ReturnType<ReturnType<typeof declareFlags>['opts']> & { addresses: string[] };

export function define(cmd: Command, run: Runner): void {
  declareFlags(cmd).action(
    run(async (f, opts, [addresses]) => (await import('../verify.js')).verifyCommand({ ...opts, addresses }, f)),
  );
}
