// The types of typo-corpus.mjs (plain JavaScript, so that bench/typo.mjs runs it as it is).
export interface Typo {
  /** The address as mistyped. */
  address: string;
  /** The address meant: the same local part at the domain meant. */
  intended: string;
  kind: 'neighbour' | 'omission' | 'extra' | 'doubled' | 'swap' | 'tld';
}

export function typoCorpus(options: {
  meant: readonly string[];
  realDomains: readonly string[];
  isReal: (domain: string) => boolean;
  seed: number;
  perKind?: number;
  companies?: number;
}): { typos: Typo[]; correct: string[] };
