// What the engine knows of a domain before and after asking DNS about it: one record a domain, shared by its
// addresses.
import type { DomainCheck } from './dns.js';
import { isDisposableDomain, isFreeProvider } from './lists.js';
import { suggestDomain } from './typo.js';
import type { EngineVerdict } from './verdicts.js';

export interface DomainFacts {
  disposable: boolean;
  free: boolean;
  reserved: boolean;
  suggestion: string | undefined;
  /** DNS's answer, once a `verify` (or `prefetch`) has had it: `verifyKnown` decides from it without waiting. */
  check?: DomainCheck;
  /** `prefetch` asked DNS about the domain. */
  prefetched?: boolean;
  /** Its addresses' verdicts once DNS answered, by kind (see Engine.knownKey): frozen, as they are given out again. */
  shared?: EngineVerdict[];
}

/** RFC 2606 / RFC 6761 names that never exist in the public DNS. */
const RESERVED_TLDS = new Set(['test', 'example', 'invalid', 'localhost']);

/** What is known of `domain` without DNS; `literal`: an address literal's (`[192.0.2.1]`). */
export function factsOf(domain: string, literal: boolean): DomainFacts {
  const suggestion = literal ? undefined : suggestDomain(domain);
  if (literal) return { disposable: false, free: false, reserved: false, suggestion };
  return {
    // Typo-squatted domains are on the disposable list because they take any mail; the user meant the provider.
    disposable: !suggestion && isDisposableDomain(domain),
    free: isFreeProvider(domain),
    reserved: RESERVED_TLDS.has(domain.slice(domain.lastIndexOf('.') + 1)),
    suggestion,
  };
}
