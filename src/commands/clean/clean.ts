// `mailclean clean`: its flags and help, all that `clean --help` loads.
import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { ENCODINGS as INPUT_ENCODINGS } from '../../clean/scan/input/encodings.js';
import { OUTPUT_FORMATS } from '../../clean/write/formats/index.js';
import type { ClientFlags } from '../../factory.js';
import type { JsonFlag } from '../../io/json.js';
import type { ListRequest } from '../../library/clean-options.js';
import type { CheckOptions } from '../../library/types.js';
import type { Runner } from '../index.js';
import { CLEAN_HELP } from './help-text.js';

/** `clean`'s flags, checked and typed (options.ts): the run's request but for what the factory gives, and the rest. */
export interface CleanFlags {
  request: ListRequest;
  client: ClientFlags;
  checks: CheckOptions & { maxSpend?: number };
  json?: JsonFlag;
}

/** The flags of `clean`, declared once: their types are read from here (a renamed flag fails to compile). */
export function declareCleanFlags(cmd: Command) {
  return reportFlags(engineFlags(serviceFlags(listFlags(cmd)))).addHelpText('after', CLEAN_HELP);
}

function listFlags(cmd: Command) {
  return cmd
    .argument('[input]', 'CSV or text file with one address per line; - or nothing for stdin')
    .option('-o, --output <file>', 'write here (atomically) instead of stdout')
    .option('--in-place', 'allow -o to name the input file: it is replaced, and kept as NAME.bak.EXT (book.bak.xlsx)')
    .addOption(
      new Option('--format <format>', "output format (default: the one -o's extension names, else csv)").choices(
        OUTPUT_FORMATS,
      ),
    )
    .option('--sheet <name|n>', 'the sheet of an .xlsx input, by name or 1-based number (default: the first tab)')
    .option(
      '--raw-values',
      "a workbook's numbers and dates written as text as they are stored (2134, 0.25, 2026-12-07), not as the sheet " +
        'shows them (02134, 25%, 12/7/2026)',
    )
    .option('--column <name|n>', 'the email column, by header name or 1-based number (default: detected)')
    .addOption(
      new Option('--encoding <name>', "input encoding (default: a BOM's, else UTF-8, else Windows-1252)").choices(
        INPUT_ENCODINGS,
      ),
    )
    .option(
      '--strict',
      'refuse an input whose rows have more or fewer fields than the header (exit 2), instead of keeping them',
    )
    .option(
      '--case-sensitive',
      'tell local parts apart by the case of their letters (Ann@x.com and ann@x.com checked and paid as two); by ' +
        'default they are one address, as mailing platforms count subscribers',
    )
    .addOption(
      new Option(
        '--fix-typos [mode]',
        'check and pay for ann@gmial.com as its fix ann@gmail.com, never the typo (a fix in the list or cache is ' +
          'free), the fix in email_fixed; replace: the fix in the email cell, the typed one in email_original',
      )
        .choices(['column', 'replace'] as const)
        .preset('column'),
    )
    .option(
      '--escape-formulas',
      "CSV output: put ' before the input's cells that start with = + - @ tab or CR, so no spreadsheet runs them " +
        '(default: on for a workbook input, off for a CSV one, kept byte for byte)',
    )
    .option('--no-escape-formulas', "CSV output: write the input's cells as they are, even from a workbook")
    .option(
      '--only <statuses>',
      'keep only rows with these statuses or reasons, e.g. valid,risky or valid,catch_all; provider=NAME narrows them to a mail provider',
    )
    .option('--rejects <file>', 'write the rows --only leaves out to this file');
}

function serviceFlags<A extends unknown[], O extends OptionValues>(cmd: Command<A, O>) {
  return cmd
    .option('--rate <n/window>', 'at most N requests per window, e.g. 50/5m (default: profile rate, else 50/5m)')
    .option('--concurrency <n>', 'requests in flight at once', '4')
    .option('--max-spend <n>', 'send at most N addresses (allowance) in this run')
    .option(
      '--shared <redis-url>',
      'share the rate limit and the cache with runners on other machines (env: MAILCLEAN_REDIS_URL)',
    )
    .option(
      '--max-age <duration>',
      'reuse answers the service gave within this time, for any list (0: ask again)',
      '30d',
    )
    .option('--dry-run', 'read the input and report what a run would send and spend; send nothing')
    .option('--resume', 'continue an earlier run of the same input without asking')
    .option('--restart', 'discard what an earlier run of the same input saved, and ask again what the cache knows')
    .option('-y, --yes', 'do not ask for confirmation');
}

function engineFlags<A extends unknown[], O extends OptionValues>(cmd: Command<A, O>) {
  return cmd
    .option(
      '--local',
      'check with the built-in engine (syntax, disposable list, DNS) in-process even when a service is configured',
    )
    .option('--smtp', 'built-in engine: also ask each mail server whether the mailbox exists (needs outbound port 25)')
    .option(
      '--no-precheck',
      'with the service: send every address, without first deciding for free what DNS and lists can',
    )
    .option(
      '--dns-server <ip[:port],…>',
      'built-in engine and precheck: DNS servers to ask, IPv6 as [ip]:port (default: the system resolver)',
    )
    .option(
      '--dns-concurrency <n>',
      "built-in engine and precheck: domains looked up at once (default: learned from the resolver's answers, up to 256)",
    )
    .option(
      '--dns-timeout <duration>',
      'built-in engine and precheck: how long a DNS query waits before it is asked again (once), e.g. 500ms or ' +
        "2s (default: 4x the resolver's slower answers, from 750ms to 3s)",
    )
    .option('--smtp-port <n>', 'built-in engine with --smtp: the port to probe (default: 25)')
    .option('--smtp-from <address>', 'built-in engine with --smtp: the MAIL FROM address to probe with');
}

function reportFlags<A extends unknown[], O extends OptionValues>(cmd: Command<A, O>) {
  return cmd
    .addOption(new Option('--json [fields]', 'with --dry-run: print the report as JSON (optionally only these fields)'))
    .option('--summary-json <file>', 'write a summary of the run as JSON (counts by status and reason, spend, outputs)')
    .option('--report <file.html>', 'write a self-contained HTML report with charts of the breakdown')
    .option(
      '--fail-when <conditions>',
      'exit 5 when a condition holds, e.g. invalid>5% or unchecked>0 (comma-separated)',
    );
}

/** The flags as commander parsed them, unchecked. */
export type RawCleanFlags = ReturnType<ReturnType<typeof declareCleanFlags>['opts']>;

export function define(cmd: Command, run: Runner): void {
  const clean = declareCleanFlags(cmd);
  clean.action(run(async (f, opts, args) => (await import('./options.js')).startClean(f, clean, opts, args)));
}
