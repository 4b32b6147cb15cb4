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
  /** The domain's UTF-8, once its facts can be found by it (FactsByBytes). */
  bytes?: Buffer;
}

/**
 * Domains' facts found by the domain's UTF-8, for keys read as bytes: a million addresses' domains looked up
 * without making a string of each. Holds only domains given to `add`; a hash two domains share finds neither.
 */
export class FactsByBytes {
  private readonly byHash = new Map<number, DomainFacts | null>();

  add(domain: string, facts: DomainFacts): void {
    facts.bytes ??= Buffer.from(domain, 'utf8');
    const hash = hashOf(facts.bytes, 0, facts.bytes.length);
    const there = this.byHash.get(hash);
    this.byHash.set(hash, there === undefined || there === facts ? facts : null);
  }

  get(bytes: Uint8Array, start: number, end: number): DomainFacts | undefined {
    const facts = this.byHash.get(hashOf(bytes, start, end));
    if (!facts?.bytes || facts.bytes.length !== end - start) return undefined;
    for (let i = 0; i < facts.bytes.length; i++) if (facts.bytes[i] !== bytes[start + i]) return undefined;
    return facts;
  }

  clear(): void {
    this.byHash.clear();
  }
}

/** FNV-1a over bytes[start, end), as a small integer (a map key V8 keeps unboxed). */
function hashOf(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  return h & 0x3fffffff;
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
