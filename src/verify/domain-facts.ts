// What the engine knows of a domain before and after asking DNS: one record a domain, shared by its addresses.
import type { DomainCheck } from './dns.js';
import { isDisposableDomain, isFreeProvider } from './lists.js';
import { suggestDomain } from './typo.js';
import { type EngineVerdict, sharedVerdict } from './verdicts.js';

export interface DomainFacts {
  disposable: boolean;
  free: boolean;
  reserved: boolean;
  suggestion: string | undefined;
  check?: DomainCheck;
  prefetched?: boolean;
  /** Its addresses' verdicts once DNS answered, by kind (see Engine.knownKey): frozen, as they are given out again. */
  shared?: EngineVerdict[];
  byBytes?: boolean;
}

/** Domains' facts found by their UTF-8 without making a string: bytes in one buffer, an open-addressing table. */
export class FactsByBytes {
  private readonly facts: DomainFacts[] = [];
  private bytes = new Uint8Array(1 << 14);
  private used = 0;
  private starts = new Int32Array(1025);
  private slots = new Int32Array(1024);

  add(domain: string, facts: DomainFacts): void {
    if (facts.byBytes) return;
    facts.byBytes = true;
    const utf8 = Buffer.from(domain, 'utf8');
    if (this.find(utf8, 0, utf8.length) >= 0) return;
    while (this.used + utf8.length > this.bytes.length) this.bytes = grown(this.bytes, this.bytes.length * 2);
    this.bytes.set(utf8, this.used);
    this.used += utf8.length;
    const n = this.facts.push(facts);
    if (n + 1 > this.starts.length) this.starts = grown(this.starts, this.starts.length * 2);
    this.starts[n] = this.used;
    if (n * 2 > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2);
      for (let i = 0; i < n; i++) this.put(i);
    } else this.put(n - 1);
  }

  get(bytes: Uint8Array, start: number, end: number): DomainFacts | undefined {
    const found = this.find(bytes, start, end);
    return found >= 0 ? this.facts[found] : undefined;
  }

  clear(): void {
    for (const facts of this.facts) facts.byBytes = false;
    this.facts.length = 0;
    this.used = 0;
    this.slots.fill(0);
  }

  private find(bytes: Uint8Array, start: number, end: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hashOf(bytes, start, end) & mask; ; slot = (slot + 1) & mask) {
      const n = (this.slots[slot] as number) - 1;
      if (n < 0) return -1;
      const from = this.starts[n] as number;
      if ((this.starts[n + 1] as number) - from === end - start && this.sameAt(from, bytes, start, end)) return n;
    }
  }

  private sameAt(from: number, bytes: Uint8Array, start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (this.bytes[from + i - start] !== bytes[i]) return false;
    return true;
  }

  private put(n: number): void {
    const mask = this.slots.length - 1;
    let slot = hashOf(this.bytes, this.starts[n] as number, this.starts[n + 1] as number) & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = n + 1;
  }
}

function grown<T extends Uint8Array | Int32Array>(array: T, length: number): T {
  const larger = new (array.constructor as new (length: number) => T)(length);
  larger.set(array);
  return larger;
}

function hashOf(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  return (h ^ (h >>> 15)) >>> 0;
}

export function shareVerdict(facts: DomainFacts, kind: number, verdict: EngineVerdict): EngineVerdict {
  const shared = sharedVerdict(verdict);
  (facts.shared ??= [])[kind] = shared;
  return shared;
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
