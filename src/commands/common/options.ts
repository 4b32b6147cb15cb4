// Options several commands declare alike. Help loads this module, so it imports commander and nothing else.
import { Option } from '@commander-js/extra-typings';

export const SERVICE_CHOICES = ['platform', 'clean', 'all'] as const;
export type ServiceChoice = (typeof SERVICE_CHOICES)[number];

export function serviceOption(defaultValue: ServiceChoice, choices: readonly ServiceChoice[] = SERVICE_CHOICES) {
  return new Option('--service <service>', 'which service').choices(choices).default(defaultValue);
}

export function jsonOption() {
  return new Option('--json [fields]', 'print JSON on stdout (optionally only these comma-separated fields)');
}

/** --shared, for what this command takes from the Redis; the environment and the profile stand in for it alike. */
export function sharedOption(use: string) {
  return new Option('--shared <redis-url>', `${use} (else MAILCLEAN_REDIS_URL, else the profile key \`shared\`)`);
}
