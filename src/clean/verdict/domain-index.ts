const FIRST_SLOTS = 1 << 10;
const FIRST_DOMAINS = 1 << 9;

/**
 * Domains numbered in order of first appearance, found by the domain inside an address (the text after `at`) without
 * cutting it out: an open-addressing table of numbers in a typed array, each domain's hash beside it.
 */
export class DomainIndex {
  private slots = new Int32Array(FIRST_SLOTS);
  readonly domains: string[] = [];
  private hashes = new Int32Array(FIRST_DOMAINS);
  /** Where the last lookup ended: the free slot a new domain takes (a field, so a lookup makes no object). */
  private slot = 0;

  /** How many domains a caller's arrays by domain number must hold for now (grows by doubling). */
  get capacity(): number {
    return this.hashes.length;
  }

  /** The number of the domain after `at` in `text` (-1 for a whole domain), or -1 when it is not held. */
  find(text: string, at = -1): number {
    return this.lookUp(text, at, hashAfter(text, at));
  }

  /** The domain's number, given it when new. */
  add(text: string, at = -1): number {
    const hash = hashAfter(text, at);
    const found = this.lookUp(text, at, hash);
    return found >= 0 ? found : this.added(at < 0 ? text : text.slice(at + 1), hash, this.slot);
  }

  private lookUp(text: string, at: number, hash: number): number {
    const length = text.length - at - 1;
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (let held = this.slots[slot]!; held !== 0; held = this.slots[slot]!) {
      const candidate = this.domains[held - 1]!;
      if (this.hashes[held - 1] === hash && candidate.length === length && text.endsWith(candidate)) return held - 1;
      slot = (slot + 1) & mask;
    }
    this.slot = slot;
    return -1;
  }

  private added(domain: string, hash: number, slot: number): number {
    const number = this.domains.push(domain) - 1;
    this.slots[slot] = number + 1;
    if (number === this.hashes.length) this.hashes = grown(this.hashes, this.hashes.length * 2);
    this.hashes[number] = hash;
    if (this.domains.length * 2 > this.slots.length) this.rehash();
    return number;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    const mask = this.slots.length - 1;
    for (let d = 0; d < this.domains.length; d++) {
      let slot = this.hashes[d]! & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = d + 1;
    }
  }
}

function hashAfter(text: string, at: number): number {
  let hash = 0x811c9dc5;
  for (let i = at + 1; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

export function grown<T extends Int32Array | Float64Array | Uint8Array>(array: T, length: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(length);
  bigger.set(array);
  return bigger;
}
