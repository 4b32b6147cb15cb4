// `mailclean help TOPIC`, from the tables the README and the man page are checked against; loaded only when asked.

import {
  KIND_COLUMNS,
  meaningLines,
  REASON_MEANINGS,
  STATUS_MEANINGS,
  VERDICT_COLUMNS,
} from '../clean/verdict/verdict.js';
import { FORMATS } from '../clean/write/formats/index.js';
import type { HelpTopic } from './topic-names.js';

export interface Entry {
  name: string;
  meaning: string;
}

export const ENVIRONMENT: readonly Entry[] = [
  { name: 'MAILCLEAN_PROFILE', meaning: 'profile name (default `default`)' },
  { name: 'MAILCLEAN_API_URL', meaning: 'platform base URL' },
  { name: 'MAILCLEAN_CLEAN_URL', meaning: 'email cleaning base URL' },
  { name: 'MAILCLEAN_TOKEN', meaning: 'platform bearer token; overrides the stored one' },
  { name: 'MAILCLEAN_CLEAN_TOKEN', meaning: 'cleaning service bearer token; overrides the stored one' },
  { name: 'MAILCLEAN_INTERNAL_TOKEN', meaning: 'internal access token for `oem-register` (and the sandbox OEM route)' },
  {
    name: 'MAILCLEAN_CONFIG_DIR',
    meaning:
      'where profiles live (default $XDG_CONFIG_HOME/mailclean, ~/.config/mailclean; macOS ~/Library/Application Support/mailclean; Windows %APPDATA%\\mailclean)',
  },
  {
    name: 'MAILCLEAN_DATA_DIR',
    meaning:
      'journals, limiter state, cache, sandbox data (default $XDG_STATE_HOME/mailclean, ~/.local/state/mailclean; macOS ~/Library/Application Support/mailclean/state; Windows %LOCALAPPDATA%\\mailclean)',
  },
  { name: 'MAILCLEAN_NO_INPUT', meaning: '1: never prompt (also when CI is set)' },
  { name: 'CI', meaning: 'set: never prompt, no colour' },
  { name: 'MAILCLEAN_DEBUG', meaning: '1: like --debug (HTTP requests and timings on stderr, secrets redacted)' },
  { name: 'MAILCLEAN_TIMEOUT_MS', meaning: 'per-request timeout (default 30000)' },
  { name: 'MAILCLEAN_REDIS_URL', meaning: 'clean --shared: the Redis runners on several machines share' },
  { name: 'MAILCLEAN_DNS_SERVERS', meaning: 'resolvers for the built-in engine, comma-separated IP[:PORT]' },
  { name: 'HTTPS_PROXY', meaning: 'proxy for https:// services (either case; lower case wins)' },
  { name: 'HTTP_PROXY', meaning: 'proxy for http:// services (either case; lower case wins)' },
  { name: 'NO_PROXY', meaning: 'hosts reached directly: names, host:port, .domain suffixes or *' },
  { name: 'NODE_EXTRA_CA_CERTS', meaning: "a PEM file of extra certificate authorities (your organisation's)" },
  { name: 'NO_COLOR', meaning: 'set: no colour' },
  {
    name: 'FORCE_COLOR',
    meaning: 'colour off a terminal too, unless 0 (wins over NO_COLOR, CI); stdout data stays plain',
  },
  { name: 'TERM', meaning: 'dumb: no colour' },
];

export const EXIT_CODES: readonly Entry[] = [
  { name: '0', meaning: 'success' },
  { name: '1', meaning: 'error: unexpected, or a service still failing after retries' },
  {
    name: '2',
    meaning:
      'usage: bad flag, unreadable or malformed input, a missing value with prompts off, a value the service rejected (422)',
  },
  { name: '3', meaning: 'partial: clean wrote its outputs but some rows are unchecked (verify: no definite answer)' },
  { name: '4', meaning: 'authentication needed or rejected' },
  {
    name: '5',
    meaning: 'clean: a --fail-when condition holds (outputs written); verify: an address is invalid or risky',
  },
  { name: '130', meaning: 'interrupted by SIGINT (Ctrl-C); answers saved, --resume continues' },
  { name: '143', meaning: 'stopped by SIGTERM; answers saved, --resume continues' },
];

function table(entries: readonly Entry[]): string {
  return meaningLines(Object.fromEntries(entries.map((e) => [e.name, e.meaning])));
}

function formatting(): string {
  return `Data goes to standard output, everything else (progress, notes, warnings, errors) to standard error,
so \`mailclean clean list.csv > out.csv\` and pipes carry only data.

JSON: commands that print data take --json for machine-readable output, and --json FIELD,FIELD for only
those fields (\`mailclean me --json email,first_name\`). An unknown field is an error listing the ones there are.
The fields of every command: docs/json.md.

clean's outputs: --format ${Object.keys(FORMATS).join('|')}. Without --format, the extension of -o chooses
(out.json is JSON, out.xlsx a workbook), else CSV. CSV keeps each row's original text, delimiter and line
endings, then appends the result columns; JSON and NDJSON give one object per row keyed by header name;
xlsx writes typed cells and is refused on a terminal (use -o FILE.xlsx).

Colour, the live progress line and prompts appear only on a terminal: never in a pipe, a file or CI.
NO_COLOR, TERM=dumb or --no-color turn colour off; -q silences notes and progress.
Tables are aligned for a terminal and tab-separated otherwise, for cut and awk.

Control characters (ESC, BEL, CR, ...) in what a service answers, a file holds or an argument gives are shown
escaped, as \\x1b, on standard error always and on standard output when it is a terminal, so no text can clear
the screen or set its title; data sent to a pipe or a file is written byte for byte.`;
}

function statuses(): string {
  return `Every row of a clean gets one email_status, whichever checker answered:
${meaningLines(STATUS_MEANINGS)}

and an email_reason saying why (empty for valid and unchecked rows):
${meaningLines(REASON_MEANINGS)}

Result columns: ${VERDICT_COLUMNS.join(', ')},
then ${KIND_COLUMNS.join(' and ')} (a free-mail provider's address, a function's), then email_service_status (the
service's own word) or email_suggestion (the built-in engine's guess at a mistyped domain), email_checked when
a cell held its address inside a name or a link, and with --fix-typos email_fixed (the address a mistyped one was
checked as) or, with --fix-typos=replace, email_original (the cell the fix replaced). --only and --fail-when take
statuses and reasons:

  mailclean clean list.csv --only valid -o keep.csv --rejects drop.csv
  mailclean clean list.csv --fail-when 'invalid>5%'`;
}

export const TOPICS: Readonly<Record<HelpTopic, () => string>> = {
  environment: () =>
    `Environment variables (a flag wins over the environment, which wins over the profile):\n${table(ENVIRONMENT)}`,
  'exit-codes': () => `Exit codes:\n${table(EXIT_CODES)}`,
  formatting,
  statuses,
};
