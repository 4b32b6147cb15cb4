// The domains whose addresses were answered without a lookup (the journal, the cache), asked for their mail provider
// alone, so every row of a domain says the same whichever step answered it.
import type { Engine } from '../../../verify/index.js';
import type { DomainProviders } from '../../verdict/domain-providers.js';

/** Lookups waiting at once: the engine bounds its own DNS concurrency, this only how many wait on it. */
const CONCURRENCY = 64;

/** Asks the engine about each domain of `keys` the table does not hold yet: a domain once, a key's domain a probe. */
export async function askProviders(
  keys: Iterable<string>,
  engine: Engine,
  providers: DomainProviders,
  stop: AbortSignal,
): Promise<void> {
  const next = keys[Symbol.iterator]();
  const worker = async () => {
    for (let item = next.next(); !item.done && !stop.aborted; item = next.next()) {
      const key = item.value;
      if (providers.holdsDomainOf(key)) continue;
      const domain = key.slice(key.lastIndexOf('@') + 1);
      providers.set(domain, await engine.provider(domain));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}
