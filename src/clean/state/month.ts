/** The calendar month (UTC) of `now`, as `2026-11`: the period the allowance is counted in (docs/assumptions.md). */
export const monthOf = (now: number) => new Date(now).toISOString().slice(0, 7);
