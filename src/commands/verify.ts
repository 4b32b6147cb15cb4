import type { FewChecked } from '../clean/check/check-few.js';
import type { EngineSettings } from '../clean/check/engine/engine-settings.js';
import { prefilter } from '../clean/scan/prefilter.js';
import { addressKind, prefilterVerdict, type Verdict } from '../clean/verdict/verdict.js';
import { parseDuration } from '../config/duration.js';
import { DEFAULT_RATE, parseRate } from '../config/rate.js';
import { ExitCode, UsageError } from '../errors.js';
import type { Factory } from '../factory.js';
import type { JsonFlag } from '../io/json.js';
import { renderTable } from '../io/table.js';
import { engineSettings, whoChecks } from './clean/choose-checker.js';
import { precheckNote } from './clean/render.js';
import { VERIFY_FIELDS } from './common/json-fields.js';
import { cleaningAccountKey, cleaningSession } from './common/sessions.js';

const MAX_ADDRESSES = 500;

export interface VerifyOptions {
  addresses: string[];
  local?: boolean;
  maxAge: string;
  dnsServer?: string;
  /** Signed in: decide for free what the built-in engine can before paying (--no-precheck: send everything). */
  precheck?: boolean;
  json?: JsonFlag;
}

/** One line of `--json`. */
export interface VerifyRow {
  address: string;
  status: Verdict['status'];
  reason: string;
  valid: boolean | null;
  disposable: boolean | null;
  validDomain: boolean | null;
  /** A free-mail provider's address (gmail.com, …), a function's (info@, no-reply@): null when not an address. */
  free: boolean | null;
  role: boolean | null;
  suggestion: string | null;
  serviceStatus: string | null;
  checker: 'service' | 'precheck' | 'local';
  fromCache: boolean;
  checkedAt: string | null;
}

export async function verify(o: VerifyOptions, f: Factory): Promise<number> {
  if (o.addresses.length > MAX_ADDRESSES)
    throw new UsageError(`verify takes at most ${MAX_ADDRESSES} addresses`, 'for a list, use `mailclean clean FILE`');
  const maxAgeMs = parseDuration(o.maxAge, '--max-age');
  (await f.profile()).requireKnown();
  const precheck = o.precheck ?? true;
  const engine = {
    smtp: false,
    smtpPort: 25,
    dnsServers: o.dnsServer,
    given: o.dnsServer !== undefined && !precheck ? '--dns-server' : undefined,
  };
  const checker = await whoChecks(f, { local: o.local ?? false, engine });
  const decided = o.addresses.map((address) => ({ address, ...prefilter(address) }));
  const keys = [...new Set(decided.flatMap((d) => (d.key === undefined ? [] : [d.key])))];
  const checked =
    keys.length === 0
      ? undefined
      : checker === 'service'
        ? await withService(f, keys, maxAgeMs, { precheck, engine })
        : await withEngine(f, keys, checker);
  const stopped = checked?.outcome.stopped;
  // A refused token, or a URL with no service behind it, fails the command (4, 1): no address was to blame.
  if (stopped?.error && (stopped.reason === 'auth' || stopped.reason === 'no-service')) throw stopped.error;
  if (stopped && stopped.reason !== 'interrupted') f.io.warn(stopped.message);
  const rows = decided.map((d): VerifyRow => {
    const verdict = d.key === undefined ? prefilterVerdict('', d.reason) : checked?.results.get(d.key);
    const by = checker !== 'service' ? 'local' : verdict?.decidedBy === 'precheck' ? 'precheck' : 'service';
    return rowOf(d.address, verdict, by, d.key !== undefined && (checked?.fromCache.has(d.key) ?? false));
  });
  if (o.json !== undefined) f.io.json(rows, o.json, VERIFY_FIELDS);
  else f.io.out(render(f, rows));
  if (f.io.signals.received) return f.io.signals.exitCode;
  return exitCodeOf(rows);
}

function rowOf(
  address: string,
  verdict: Verdict | undefined,
  checker: VerifyRow['checker'],
  fromCache: boolean,
): VerifyRow {
  return {
    address,
    status: verdict?.status ?? 'unchecked',
    reason: verdict?.reason ?? '',
    valid: verdict?.valid ?? null,
    disposable: verdict?.disposable ?? null,
    validDomain: verdict?.validDomain ?? null,
    ...(verdict ? addressKind(verdict) : { free: null, role: null }),
    suggestion: verdict?.suggestion ?? null,
    serviceStatus: verdict?.serviceStatus ?? null,
    checker,
    fromCache,
    checkedAt: verdict?.checkedAt || null,
  };
}

async function withService(
  f: Factory,
  keys: string[],
  maxAgeMs: number,
  prechecking: { precheck: boolean; engine: { dnsServers?: string } },
): Promise<FewChecked> {
  const client = await cleaningSession(f);
  const account = (await cleaningAccountKey(f))!;
  const state = await f.accountState(account);
  const rate = (await f.profile()).settings().rate;
  const { checkFewWithService } = await import('../clean/check/check-few.js');
  const cache = await state.cache().catch((error: unknown) => {
    f.io.warn(
      `the verdict cache cannot be opened (${error instanceof Error ? error.message : String(error)}): answers are not kept or reused`,
    );
    return undefined;
  });
  const checked = await checkFewWithService(keys, {
    client,
    limiter: state.limiter(parseRate(rate ?? DEFAULT_RATE, 'rate')),
    cache,
    since: maxAgeMs > 0 ? Date.now() - maxAgeMs : undefined,
    stop: f.io.signals.stop,
    abort: f.io.signals.abort,
    onCacheError: (error) => f.io.warn(`answers could not be kept in the verdict cache (${error.message})`),
    precheck: async (uncached) => {
      const decided = new Map<string, Verdict>();
      if (!prechecking.precheck || uncached.length === 0) return decided;
      const settings = await engineSettings({ engine: { ...prechecking.engine, smtp: false, smtpPort: 25 } }, f.io.env);
      const { runPrecheck } = await import('../clean/check/precheck.js');
      const outcome = await runPrecheck(uncached, settings, {
        signals: f.io.signals,
        onDecided: (key, verdict) => decided.set(key, { ...verdict, key }),
        onDebug: (message) => f.io.debug(`precheck: ${message}`),
      });
      precheckNote(f, outcome);
      return decided;
    },
  });
  const known = state.knownAllowance();
  const { outcome } = checked;
  if (outcome.allowance?.left !== undefined) state.rememberAllowance(outcome.allowance, 'refusal');
  else if (known?.left !== undefined && outcome.spent > 0)
    state.rememberAllowance({ ...known, left: Math.max(0, known.left - outcome.spent) }, 'run');
  await state.recordSpend(outcome.spent).catch(() => undefined);
  return checked;
}

async function withEngine(f: Factory, keys: string[], settings: EngineSettings): Promise<FewChecked> {
  const [{ Engine }, { checkFewWithEngine }] = await Promise.all([
    import('../verify/index.js'),
    import('../clean/check/check-few.js'),
  ]);
  const engine = new Engine({ dns: { servers: settings.dnsServers }, onWarning: (message) => f.io.warn(message) });
  try {
    return await checkFewWithEngine(keys, engine, f.io.signals.stop);
  } finally {
    await engine.close();
  }
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
