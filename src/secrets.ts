// Every secret this command holds, so nothing it writes repeats one (a service may echo the token in an error page).

const MASK = '[redacted]';
/** Shorter values are not treated as secrets: replacing them would garble ordinary text. */
const MIN_LENGTH = 8;

export class SecretSet {
  private readonly values = new Set<string>();
  private pattern: RegExp | undefined;

  /** Adds a secret; an `id|secret` or `id.secret` token adds its secret half too, which may be echoed alone. */
  add(value: string | undefined): void {
    for (const part of [value?.trim(), value?.split('|').at(-1)?.trim(), value?.split('.').at(-1)?.trim()]) {
      if (part && part.length >= MIN_LENGTH && !this.values.has(part)) {
        this.values.add(part);
        this.pattern = undefined;
      }
    }
  }

  redact(text: string): string {
    if (this.values.size === 0) return text;
    // Longest first, so a token is masked whole before its secret half is looked for.
    this.pattern ??= new RegExp(
      [...this.values]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|'),
      'g',
    );
    return text.replace(this.pattern, MASK);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function secretsOf(env: Record<string, string | undefined>): SecretSet {
  const secrets = new SecretSet();
  for (const name of ['MAILCLEAN_TOKEN', 'MAILCLEAN_CLEAN_TOKEN', 'MAILCLEAN_INTERNAL_TOKEN']) secrets.add(env[name]);
  return secrets;
}
