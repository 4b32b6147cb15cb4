// Each domain's mail provider as this run's DNS told it (the engine's or the precheck's lookups), given to every
// row of the domain whichever step answered it (docs/assumptions.md#the-provider-behind-each-address).
import { PROVIDERS, type Provider } from '../../verify/lists.js';
import { DomainIndex, grown } from './domain-index.js';
import type { Verdict } from './verdict.js';

/** Codes a byte a domain: 0 unknown (''), then PROVIDERS. */
const NAMES: ReadonlyArray<Provider | ''> = ['', ...PROVIDERS];
const CODES = new Map(NAMES.map((name, code) => [name, code]));

/** A table by domain (its number and a byte), never a string or object a row or an address. */
export class DomainProviders {
  private readonly index = new DomainIndex();
  private codes = new Uint8Array(this.index.capacity);
  private readonly withProvider = new WeakMap<Verdict, Verdict[]>();
  /** The last verdict given and its variants: rows in a row mostly share a verdict, so the map is seldom asked. */
  private lastVerdict: Verdict | undefined;
  private lastMade: Verdict[] = [];

  set(domain: string, provider: Provider | ''): void {
    const number = this.index.add(domain);
    if (number >= this.codes.length) this.codes = grown(this.codes, this.index.capacity);
    this.codes[number] = CODES.get(provider) ?? 0;
  }

  /** Whether the domain of `key` (an address) has its entry, a provider or unknown. */
  holdsDomainOf(key: string): boolean {
    return this.index.find(key, key.lastIndexOf('@')) >= 0;
  }

  /** The provider of the domain in `key` (an address), '' when unknown. */
  ofKey(key: string): Provider | '' {
    const at = key.lastIndexOf('@');
    const number = at < 0 ? -1 : this.index.find(key, at);
    return NAMES[number < 0 ? 0 : this.codes[number]!]!;
  }

  /** `verdict` with the provider of `key`'s domain: one object a verdict and provider, so rows still share them. */
  verdictOf(verdict: Verdict, key: string): Verdict {
    const at = key.lastIndexOf('@');
    const number = at < 0 ? -1 : this.index.find(key, at);
    const code = number < 0 ? 0 : this.codes[number]!;
    if (code === 0) return verdict;
    if (verdict !== this.lastVerdict) {
      let made = this.withProvider.get(verdict);
      if (!made) this.withProvider.set(verdict, (made = []));
      this.lastVerdict = verdict;
      this.lastMade = made;
    }
    return (this.lastMade[code] ??= { ...verdict, provider: NAMES[code] });
  }
}
