import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { jsonOption } from '../common/options.js';
import type { Runner } from '../index.js';

/** The sandbox's flags, declared once: their types are read from here. */
function declareFlags(cmd: Command) {
  return faultFlags(serverFlags(cmd)).addOption(jsonOption()).addHelpText('after', SANDBOX_HELP);
}

/** Where it listens and keeps its state, and the service's limits and answer shape. */
function serverFlags(cmd: Command) {
  return cmd
    .option('--port <n>', 'port to listen on (0 picks a free one)', '0')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--data <dir>', 'keep state in this directory (default: <data dir>/sandbox)')
    .option('--memory', 'keep state in memory only')
    .addOption(
      new Option('--plan <plan>', 'plan given to new cleaning accounts')
        .choices(['free', 'pro', 'unlimited'] as const)
        .default('free'),
    )
    .option(
      '--internal-token-file <file>',
      'file holding the internal token for /api/oem/register (else MAILCLEAN_INTERNAL_TOKEN)',
    )
    .option(
      '--rate <N/WINDOW>',
      'requests per cleaning user on the clean route, sliding window (e.g. 5/2s, 100/1h)',
      '50/5m',
    )
    .option('--allowance-status <code>', 'status of a refusal for the monthly clean allowance: 402, 403 or 429', '403')
    .addOption(
      new Option('--shape <shape>', 'how answers read where the spec is silent (see below)')
        .choices(['spec', 'alt'] as const)
        .default('spec'),
    );
}

/** Faults and delays on the clean route, for rehearsing a flaky service. */
function faultFlags<A extends unknown[], O extends OptionValues>(cmd: Command<A, O>) {
  return cmd
    .option(
      '--fault-rate <p>',
      'probability (0 to 1) of a fault per clean request, split evenly across 5xx, reset and truncated body',
      '0',
    )
    .option(
      '--reject-rate <p>',
      'probability of a 422 per valid clean request, half naming one of its addresses, half none',
      '0',
    )
    .option('--drop-rate <p>', 'probability that a clean answer leaves out the record of one address', '0')
    .option('--latency <ms|min-max>', 'delay every clean answer by MS, or a random MIN-MAX ms')
    .option('--seed <n>', 'seed of the fault and latency generator, to replay a run (default: random, printed)');
}

const SANDBOX_HELP = `
Serves both interfaces on one origin and prints their base URLs. Stop it with Ctrl-C.

The clean route keeps the service's limits: --rate per cleaning user (default 50/5m; a 429 with
Retry-After and RateLimit-* headers beyond it) and a monthly allowance per plan (free 50, pro
10000 addresses, unlimited none; refused whole with --allowance-status). Rate arrivals and usage
persist in the data directory, so runs sharing it share the limits.

--shape alt answers as a second, independent reading of what the spec leaves open:
  - platform failures: {version, status:false, statusCode, details: <HTTP reason>, statusMessage: <the
    message, "The given data was invalid." on 422>, response: {errors} on 422, else null}; no top-level
    message or errors
  - cleaning failures: {status:false, statusCode, message, result: {errors} on 422, else null}
  - a missing, bad or expired token on a protected route: a bare {"message":"Unauthenticated."}
  - POST /api/login and /api/register: the token in response.access_token (token_type Bearer)
  - POST /api/v1/auth/signin and signup: the token in result.accessToken (user in result.user)
  - GET /api/me?current_buuid= with a brand the user does not own: 403 "This action is unauthorized."
  - POST /api/me: empty strings count as missing (422)
  - monthly allowance refusal: 403 (unless --allowance-status), message "You have exceeded your monthly
    email cleaning limit on the free plan: 50 per month, 20 left." (no renewal date)

Fault injection, for rehearsing a flaky service, applies to the clean route only: --fault-rate P
gives each admitted request a P/3 chance each of a 500/502/503, a connection reset, and a body cut
in half; --reject-rate P a P/2 chance each of a 422 naming one of its addresses ("email.3") and of a
422 naming none (nothing charged); --drop-rate P a P chance that a 200 leaves out the record of one
address (all charged). The rates add up to at most 1. --latency delays the answers. The same --seed
replays the same faults.

Examples:
  mailclean sandbox --port 8080 --memory &
  mailclean --api-url http://127.0.0.1:8080 --clean-url http://127.0.0.1:8080 register
  mailclean sandbox --rate 5/10s --fault-rate 0.1 --latency 50-300 --seed 42 --allowance-status 429
  mailclean sandbox --reject-rate 0.05 --drop-rate 0.05 --seed 7`;

export type SandboxFlags = ReturnType<ReturnType<typeof declareFlags>['opts']>;

export function define(cmd: Command, run: Runner): void {
  declareFlags(cmd).action(
    run(async (f, opts) => {
      const { sandboxOptions, serveSandbox } = await import('../sandbox.js');
      return serveSandbox(await sandboxOptions(opts, f), f);
    }),
  );
}
