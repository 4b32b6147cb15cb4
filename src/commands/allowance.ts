import type { AccountState } from '../clean/state/account-state.js';
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

/** The allowance as `allowance --json` prints it (docs/json.md). */
export type AllowanceView = Awaited<ReturnType<typeof allowanceView>>;

export async function allowance(o: { shared?: string; json?: JsonFlag }, f: Factory): Promise<number> {
  const view = await allowanceView(await cleaningAccountState(f, o.shared, 'allowance'));
  if (o.json !== undefined) f.io.json(view, o.json, ALLOWANCE_FIELDS);
  else f.io.out(renderPairs(pairs(view)));
  return 0;
}

async function allowanceView(state: AccountState) {
  const known = state.knownAllowance();
  const spent = await state.spentInMonth();
  return {
    // Addresses left when last heard, or null when the service never said.
    left: known?.left ?? null,
    // The month's allowance, and the plan it names (free, pro), when the service said.
    limit: known?.limit ?? null,
    plan: known?.limit !== undefined ? (PLANS_BY_LIMIT.get(known.limit) ?? null) : null,
    renewsAt: known?.renewsAt ?? null,
    // When the news was heard (ISO 8601) and from what: a sign-in, a refusal, or a run counting down.
    asOf: known?.asOf ?? null,
    source: known?.source ?? null,
    month: spent.month,
    spentThisMachine: spent.thisMachine,
    // Every runner sharing the account; null when the state is not shared.
    spentAllRunners: spent.allRunners ?? null,
  };
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
