/** The calendar month (UTC) of `now`, as `2026-11`: the period the allowance is counted in (docs/assumptions.md). */
export const monthOf = (now: number) => new Date(now).toISOString().slice(0, 7);

/**
 * Whether news of the allowance still holds at `now`: until the renewal date the service gave, else until the end
 * of the calendar month (UTC) it was learned in.
 */
export function stillHolds(known: { asOf: string; renewsAt?: string }, now: number): boolean {
  const renews = known.renewsAt ? Date.parse(known.renewsAt) : Number.NaN;
  if (Number.isFinite(renews)) return now < renews;
  return monthOf(Date.parse(known.asOf)) === monthOf(now);
}
