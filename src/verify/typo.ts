// Typo suggestions: the domain a mistyped one was meant to be, from the domains and rules of typo-domains.ts. The
// domain alone decides, never DNS: typo domains are often registered and parked, so they answer like real ones.
import { isDisposableDomain, isFreeProvider } from './lists.js';
import { COUNTRY_TLDS, NEIGHBOURS, REAL_LOOK_ALIKES, TARGET_DOMAINS, TLD_SLIPS } from './typo-domains.js';

/** One slip of the fingers between what was meant and what was typed, and how likely it is (lower is likelier). */
interface Slip {
  kind: 'swap' | 'substitution' | 'omission' | 'extra';
  /** Where in the meant domain: its characters from `start` up to `end` (an extra one sits at `start`). */
  start: number;
  end: number;
  cost: number;
}

const known: ReadonlySet<string> = new Set([...TARGET_DOMAINS, ...REAL_LOOK_ALIKES]);
const GENERIC_TLDS: ReadonlySet<string> = new Set(['com', 'net', 'org']);

/** `gmial.com` -> `gmail.com`, `example.con` -> `example.com`; undefined for a real domain or one not mistyped. */
export function suggestDomain(domain: string): string | undefined {
  const typed = domain.toLowerCase();
  if (isKnown(typed)) return undefined;
  const tldFixed = fixTld(typed);
  if (tldFixed === typed) return nearestTarget(typed);
  if (isKnown(tldFixed)) return tldFixed;
  // A TLD that does not exist is a slip on any domain; the name may hold one more (`gmaill.con`).
  return nearestTarget(tldFixed) ?? (isDisposableDomain(tldFixed) ? undefined : tldFixed);
}

/** A domain people use: a target, a look-alike or a free provider. Never corrected. */
export function isKnown(domain: string): boolean {
  return known.has(domain) || isFreeProvider(domain);
}

function fixTld(domain: string): string {
  const dot = domain.lastIndexOf('.');
  const fix = dot > 0 ? TLD_SLIPS.get(domain.slice(dot + 1)) : undefined;
  return fix ? `${domain.slice(0, dot)}.${fix}` : domain;
}

/** The target one likely slip away, if no other is as near: between two as near, any pick would be a guess. */
function nearestTarget(typed: string): string | undefined {
  let best: string | undefined;
  let bestCost = Number.POSITIVE_INFINITY;
  let runnerUp = Number.POSITIVE_INFINITY;
  for (const meant of TARGET_DOMAINS) {
    if (Math.abs(meant.length - typed.length) > 1) continue;
    const slip = slipBetween(meant, typed);
    if (!slip || !isLikely(slip, meant, typed)) continue;
    if (slip.cost < bestCost) {
      runnerUp = bestCost;
      bestCost = slip.cost;
      best = meant;
    } else runnerUp = Math.min(runnerUp, slip.cost);
  }
  return bestCost < runnerUp ? best : undefined;
}

/**
 * Whether a slip at that place would be taken for a typo. In the name: any slip of a long name, only likely ones of
 * a short name (real companies sit one letter from `aol`, `msn`, `web`), and neither a letter left out of three (two
 * letters are a company's: `al.com`) nor one added at either end of four (another word: `olive.com`). In the suffix:
 * onto another country's TLD only from `com`, `net` or `org` (`gmail.co`), or a likely slip of a long name
 * (`t-online.se`): short names are taken in many countries (`gmx.se`, `mail.eu`), and a national Hotmail is a
 * look-alike. Across the dot (`gmailcom`): always.
 */
function isLikely(slip: Slip, meant: string, typed: string): boolean {
  const dot = meant.indexOf('.');
  if (slip.end <= dot) {
    if (dot >= 5 || slip.cost <= 0.5) return true;
    if (slip.cost > 0.75) return false;
    if (dot <= 3) return slip.kind !== 'omission';
    return slip.kind === 'omission' || (slip.start > 0 && slip.start < dot);
  }
  if (slip.start <= dot) return true;
  const typedTld = typed.slice(typed.lastIndexOf('.') + 1);
  const meantTld = meant.slice(meant.lastIndexOf('.') + 1);
  if (typedTld === meantTld || !COUNTRY_TLDS.has(typedTld) || GENERIC_TLDS.has(meantTld)) return true;
  return dot >= 5 && slip.cost <= 0.75;
}

/** The one slip that turns `meant` into `typed` (optimal string alignment distance 1), or undefined. */
export function slipBetween(meant: string, typed: string): Slip | undefined {
  let i = 0;
  while (i < meant.length && i < typed.length && meant[i] === typed[i]) i++;
  if (meant.length === typed.length) {
    if (i === meant.length) return undefined;
    if (meant.slice(i + 1) === typed.slice(i + 1)) {
      const cost = isNeighbour(meant[i], typed[i]) ? 0.5 : 1;
      return { kind: 'substitution', start: i, end: i + 1, cost };
    }
    const swapped = meant[i] === typed[i + 1] && meant[i + 1] === typed[i] && meant.slice(i + 2) === typed.slice(i + 2);
    return swapped ? { kind: 'swap', start: i, end: i + 2, cost: 0.5 } : undefined;
  }
  if (typed.length === meant.length - 1) {
    return meant.slice(i + 1) === typed.slice(i) ? { kind: 'omission', start: i, end: i + 1, cost: 0.75 } : undefined;
  }
  if (typed.length !== meant.length + 1 || typed.slice(i + 1) !== meant.slice(i)) return undefined;
  const extra = typed[i];
  const doubled = extra === typed[i - 1];
  const nearKey = isNeighbour(extra, typed[i - 1]) || isNeighbour(extra, typed[i + 1]);
  return { kind: 'extra', start: i, end: i, cost: doubled ? 0.5 : nearKey ? 0.75 : 1 };
}

function isNeighbour(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && (NEIGHBOURS.get(a)?.includes(b) ?? false);
}
