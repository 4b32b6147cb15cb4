/** The calendar month (UTC) of `now`, as `2026-11`: the period the allowance is counted in (docs/assumptions.md). */
export const monthOf = (now: number) => new Date(now).toISOString().slice(0, 7);

/** The renewal date the service gave, else the end of the calendar month (UTC) the news was learned in. */
export function holdsUntil(known: { asOf: string; renewsAt?: string }): number {
  const renews = known.renewsAt ? Date.parse(known.renewsAt) : Number.NaN;
  if (Number.isFinite(renews)) return renews;
  const asOf = new Date(known.asOf);
  return Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth() + 1, 1);
}

/** Whether news of the allowance still holds at `now`. */
export const stillHolds = (known: { asOf: string; renewsAt?: string }, now: number): boolean => now < holdsUntil(known);
