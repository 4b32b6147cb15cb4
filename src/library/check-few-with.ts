// `verify`'s two ways to check: the cleaning service through the account's limiter and cache (the precheck first),
// and the built-in engine. What the service said of the allowance and what was spent are kept for later runs.
import {
  checkFewWithEngine as checkWithEngine,
  checkFewWithService as checkWithService,
  type FewChecked,
} from '../clean/check/check-few.js';
import type { EngineSettings } from '../clean/check/engine/engine-settings.js';
import { keepLearned } from '../clean/state/known-allowance.js';
import type { Verdict } from '../clean/verdict/verdict.js';
import type { Clock } from '../clock.js';
import type { Account } from './account.js';
import type { VerifyEvent } from './types.js';

interface ServiceWork {
  maxAgeMs: number;
  precheck: boolean;
  engine: EngineSettings;
  stop: AbortSignal;
  abort: AbortSignal;
  emit: (event: VerifyEvent) => void;
}

export async function checkFewWithService(account: Account, keys: string[], o: ServiceWork): Promise<FewChecked> {
  const client = await account.cleaning();
  const state = await account.state((await account.key())!);
  const warn = (message: string) => o.emit({ type: 'warning', message });
  const cache = await state.cache().catch((error: unknown) => {
    warn(`the verdict cache cannot be opened (${messageOf(error)}): answers are not kept or reused`);
    return undefined;
  });
  const checked = await checkWithService(keys, {
    client,
    limiter: state.limiter(account.settings.rate),
    cache,
    since: o.maxAgeMs > 0 ? account.settings.clock.now() - o.maxAgeMs : undefined,
    clock: account.settings.clock,
    stop: o.stop,
    abort: o.abort,
    onCacheError: (error) => warn(`answers could not be kept in the verdict cache (${error.message})`),
    precheck: async (uncached) => {
      const decided = new Map<string, Verdict>();
      if (!o.precheck || uncached.length === 0) return decided;
      const { runPrecheck } = await import('../clean/check/precheck.js');
      const outcome = await runPrecheck(uncached, o.engine, {
        signals: { stop: o.stop },
        onDecided: (key, verdict) => decided.set(key, { ...verdict, key }),
        onDebug: (message) => o.emit({ type: 'debug', message: `precheck: ${message}` }),
      });
      o.emit({ type: 'precheck', outcome });
      return decided;
    },
  });
  const { outcome } = checked;
  keepLearned(state, state.knownAllowance(), {
    spent: outcome.spent,
    news: outcome.allowance,
    usedUp: outcome.stopped?.reason === 'allowance',
  });
  await state.recordSpend(outcome.spent).catch(() => undefined);
  return checked;
}

export async function checkFewWithEngine(
  keys: string[],
  settings: EngineSettings,
  clock: Clock,
  stop: AbortSignal,
  emit: (event: VerifyEvent) => void,
): Promise<FewChecked> {
  const { Engine } = await import('../verify/index.js');
  const engine = new Engine({
    dns: { servers: settings.dnsServers },
    onWarning: (message) => emit({ type: 'warning', message }),
  });
  try {
    return await checkWithEngine(keys, engine, stop, clock);
  } finally {
    await engine.close();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
