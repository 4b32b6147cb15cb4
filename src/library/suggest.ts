// `suggest(address)`: the built-in engine's typo suggestion for one address, with no client, no DNS and no run.
import { suggestDomain } from '../verify/typo.js';

/**
 * The address with its mistyped domain corrected (`ann@gmial.com` -> `ann@gmail.com`), the part before the `@` kept as
 * given; undefined when the domain is not a likely slip of a domain people use, or the text holds no address.
 */
export function suggest(address: string): string | undefined {
  const text = String(address).trim();
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) return undefined;
  const domain = suggestDomain(text.slice(at + 1));
  return domain === undefined ? undefined : `${text.slice(0, at)}@${domain}`;
}
