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
