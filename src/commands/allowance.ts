import type { Factory } from '../factory.js';
import type { JsonFlag } from '../io/json.js';
import { renderPairs } from '../io/table.js';
import { formatCount, quantity } from '../quantities.js';
import { cleaningAccountState } from './common/account-state.js';
import { ALLOWANCE_FIELDS } from './common/json-fields.js';

/** The monthly allowances the spec names; any other limit is shown as a number only. */
const PLANS_BY_LIMIT = new Map([
  [50, 'free'],
  [10_000, 'pro'],
]);

export interface AllowanceView {
  /** Addresses left when last heard, or null when the service never said. */
  left: number | null;
  /** The month's allowance, and the plan it names (free, pro), when the service said. */
  limit: number | null;
  plan: string | null;
  renewsAt: string | null;
  /** When the news was heard (ISO 8601) and from what: a sign-in, a refusal, or a run counting down. */
  asOf: string | null;
  source: 'signin' | 'refusal' | 'run' | null;
  month: string;
  spentThisMachine: number;
  /** Every runner sharing the account; null when the state is not shared. */
  spentAllRunners: number | null;
}

export async function allowance(o: { shared?: string; json?: JsonFlag }, f: Factory): Promise<number> {
  const state = await cleaningAccountState(f, o.shared, 'allowance');
  const known = state.knownAllowance();
  const spent = await state.spentInMonth();
  const view: AllowanceView = {
    left: known?.left ?? null,
    limit: known?.limit ?? null,
    plan: known?.limit !== undefined ? (PLANS_BY_LIMIT.get(known.limit) ?? null) : null,
    renewsAt: known?.renewsAt ?? null,
    asOf: known?.asOf ?? null,
    source: known?.source ?? null,
    month: spent.month,
    spentThisMachine: spent.thisMachine,
    spentAllRunners: spent.allRunners ?? null,
  };
  if (o.json !== undefined) f.io.json(view, o.json, ALLOWANCE_FIELDS);
  else f.io.out(renderPairs(pairs(view)));
  return 0;
}

const SOURCES = { signin: 'the sign-in answer', refusal: 'a refusal', run: 'counting down since' } as const;

function pairs(v: AllowanceView): Array<[string, string]> {
  const when = v.asOf ? `${v.asOf.slice(0, 16).replace('T', ' ')} UTC` : '';
  const left =
    v.left === null
      ? 'not known yet (the service has not said; it tells on sign-in and when it refuses)'
      : `${formatCount(v.left)} as of ${when}, from ${SOURCES[v.source!]}`;
  const out: Array<[string, string]> = [['Left', left]];
  if (v.limit !== null)
    out.push(['Plan', `${v.plan ?? 'allowance'}: ${quantity(v.limit, 'address', 'addresses')} a month`]);
  if (v.renewsAt) out.push(['Renews', v.renewsAt]);
  const all =
    v.spentAllRunners === null ? '' : `; ${formatCount(v.spentAllRunners)} by every runner sharing the account`;
  out.push([`Spent in ${v.month}`, `${quantity(v.spentThisMachine, 'address', 'addresses')} on this machine${all}`]);
  return out;
}
