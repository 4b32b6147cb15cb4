import { str, unwrapObject } from '../api/shape.js';
import { markTokenAccepted, tokenAcceptedAt } from '../config/accepted-tokens.js';
import { maskSecret } from '../config/keys.js';
import { type Profile, refusedTokenHint, type Service, type TokenSource, tokenEnvName } from '../config/profile.js';
import { AuthError, CliError, ExitCode } from '../errors.js';
import type { Factory } from '../factory.js';
import type { JsonFlag } from '../io/json.js';
import { redactUrl } from '../redact.js';
import { checkCleanToken } from './common/clean-metering.js';
import { AUTH_STATUS_FIELDS } from './common/json-fields.js';

/** A service's row of `auth status` (docs/json.md): what storedStatus finds, then what the service said. */
export type ServiceStatus = ReturnType<typeof storedStatus>;

/** Why the cleaning service's token has no status without --check: not a failure of the command. */
const NOT_CHECKED = 'not checked yet (--check asks the service, using a request of its rate limit)';

export async function authStatus(o: { json?: JsonFlag; check?: boolean }, f: Factory): Promise<number> {
  const profile = (await f.profile()).requireKnown();
  const endpoints = await f.endpoints();
  const rows: ServiceStatus[] = [];
  for (const service of ['platform', 'clean'] as const) {
    const token = profile.token(service);
    const url = (service === 'platform' ? endpoints.apiUrl : endpoints.cleanUrl) || undefined;
    const setting = service === 'platform' ? 'api-url' : 'clean-url';
    const row = storedStatus(profile, service, token, url);
    if (token.value && !url) row.problem = `no ${setting} is configured: run \`mailclean config set ${setting} URL\``;
    else if (token.value && url && service === 'platform') await verifyPlatform(f, row);
    else if (token.value && url) await verifyCleaning(f, row, { url, token: token.value, check: o.check === true });
    rows.push(row);
  }
  if (o.json !== undefined) f.io.json(rows, o.json, AUTH_STATUS_FIELDS);
  else printStatus(f, profile, rows, endpoints.sandbox);
  if (rows.some((r) => !r.signedIn)) return ExitCode.auth;
  return rows.every((r) => r.verified || r.problem === NOT_CHECKED) ? ExitCode.ok : ExitCode.error;
}

/** What the profile holds for `service`, before any service is asked. */
function storedStatus(
  profile: Profile,
  service: Service,
  { value, source }: { value?: string; source?: TokenSource },
  url: string | undefined,
) {
  const creds = profile.credentials();
  return {
    service,
    url: url ? redactUrl(url) : null,
    signedIn: Boolean(value),
    verified: false,
    email: source !== 'env' ? (creds.email ?? null) : null,
    userId: service === 'platform' && source !== 'env' ? (creds['user-id'] ?? null) : null,
    tokenSource: source ?? null,
    /** Where a stored token is kept: the OS credential store or the profiles file (null: none, or the environment's). */
    tokenStorage: profile.tokenStorage(service) ?? null,
    token: value ? maskSecret(value) : null,
    /** When the cleaning service last took the token, as this machine saw it (null for the platform). */
    acceptedAt: null as string | null,
    problem: value ? null : 'not signed in',
  };
}

/** Asks the platform whose token this is; the cleaning service has no route that checks one for free. */
async function verifyPlatform(f: Factory, row: ServiceStatus): Promise<void> {
  try {
    const me = unwrapObject((await (await f.platform()).me()).me);
    row.verified = true;
    row.email = str(me?.email) ?? row.email;
    row.userId = str(me?.id) ?? row.userId;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    row.problem = error instanceof AuthError ? rejectedHint(row.tokenSource) : `not verified: ${error.message}`;
    if (error instanceof AuthError) row.signedIn = false;
  }
}

/**
 * The cleaning service's only check of a token costs a request of its rate limit: made only with --check; otherwise
 * this machine says what it saw.
 */
async function verifyCleaning(
  f: Factory,
  row: ServiceStatus,
  o: { url: string; token: string; check: boolean },
): Promise<void> {
  const answer = o.check ? await checkCleanToken(f) : undefined;
  if (answer?.verdict === 'accepted') markTokenAccepted(f.dataDir, o.url, o.token, f.io.clock.now());
  if (answer?.verdict === 'rejected') {
    row.signedIn = false;
    row.problem = rejectedHint(row.tokenSource, 'clean');
  } else if (answer?.verdict === 'unknown') row.problem = `not verified: ${answer.why}`;
  else {
    row.acceptedAt = tokenAcceptedAt(f.dataDir, o.url, o.token) ?? null;
    row.verified = answer !== undefined || row.acceptedAt !== null;
    if (!row.verified) row.problem = NOT_CHECKED;
  }
}

/** What to do about a rejected token depends on where it came from: a variable is fixed or unset, not logged over. */
function rejectedHint(source: TokenSource | null, service: Service = 'platform'): string {
  return `token rejected: ${refusedTokenHint(service, source ?? undefined)}`;
}

function printStatus(f: Factory, profile: Profile, rows: ServiceStatus[], sandbox: boolean): void {
  const lines: string[] = [];
  for (const r of rows) {
    const name = r.service === 'platform' ? 'Platform' : 'Cleaning service';
    lines.push(`${f.io.style.bold(name)} ${sandbox ? '(built-in sandbox)' : (r.url ?? '(no URL configured)')}`);
    const who = r.email ?? r.userId;
    if (r.signedIn && r.verified) {
      const seen = r.acceptedAt
        ? ` (the service took this token ${r.acceptedAt.slice(0, 16).replace('T', ' ')} UTC)`
        : '';
      lines.push(`  ${f.io.style.green('✓')} Signed in${who ? ` as ${who}` : ''}${seen}`);
    } else if (r.signedIn) {
      const held = r.tokenSource === 'env' ? 'given in the environment' : 'stored';
      lines.push(
        `  ${f.io.style.yellow('!')} Token ${held}${who ? ` for ${who}` : ''}, ${r.problem ?? 'not verified'}`,
      );
    } else {
      lines.push(`  ${f.io.style.red('✗')} ${r.problem ?? 'not signed in'}`);
    }
    if (r.signedIn) lines.push(`  Token: ${r.token} (from ${tokenPlace(profile, r)})`);
  }
  f.io.out(`${lines.join('\n')}\n`);
}

/** `MAILCLEAN_TOKEN`, `profile "default", in the OS credential store`, `profile "ci", in /home/…/config.json`. */
function tokenPlace(profile: Profile, r: ServiceStatus): string {
  const source = profile.tokenPlace(r.service, r.tokenSource ?? undefined);
  if (r.tokenSource !== 'profile') return source;
  return `${source}, ${r.tokenStorage === 'keyring' ? 'in the OS credential store' : `in ${profile.path}`}`;
}

export async function authToken(o: { service: Service | 'cdp' }, f: Factory): Promise<number> {
  const profile = (await f.profile()).requireKnown();
  const { value } = profile.token(o.service);
  if (value) {
    f.io.data(`${value}\n`);
    return 0;
  }
  const unset = tokenEnvName(o.service) ? `${tokenEnvName(o.service)} is unset and ` : '';
  const place = profile.tokenPlace(o.service, profile.usesSandbox() ? 'sandbox' : 'profile');
  throw new AuthError(
    `no ${o.service} token: ${unset}${place} holds none`,
    refusedTokenHint(o.service === 'clean' ? 'clean' : 'platform', undefined),
  );
}
