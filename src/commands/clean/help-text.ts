// The text `clean --help` prints after its flags: what comes out, what each status and reason means, exit codes.
import { meaningLines, REASON_MEANINGS, STATUS_MEANINGS } from '../../clean/verdict/verdict.js';
import { PROVIDERS } from '../../verify/lists.js';

export const CLEAN_HELP = `
Every input row comes out once, in input order, its columns untouched, with these appended:
  email_status, email_valid, email_disposable, email_valid_domain, email_reason, email_checked_at,
  email_free (a free-mail provider's address: gmail.com, …), email_role (a function's: info@, no-reply@)
  (both from the built-in engine's lists, whichever checker answered; empty where the cell holds no address)
then email_service_status (the service's own word) and email_checked_by (service, precheck, or local for the
built-in engine under --local) whenever a service is configured; with the built-in engine, email_suggestion
(an earlier run's result columns in the input are replaced by these). email_provider, with the built-in engine
and with the precheck, is the mail provider behind the domain from its MX hosts, looked up once a domain
(Google Workspace and Microsoft 365 custom domains included):
  ${PROVIDERS.slice(0, 8).join(', ')},
  ${PROVIDERS.slice(8).join(', ')} (a mail host none of these runs),
or empty when unknown; --only provider=NAME keeps a provider's rows.
Blank and malformed addresses are decided locally and never sent; duplicates are sent once. With the service,
the precheck (on unless --no-precheck) first decides for free what DNS and lists can: domains that do not exist
or take no mail, reserved, disposable and mistyped ones (the last three even without DNS; email_checked_by says
precheck); the rest is sent.
A cell holding its address inside something else is checked by that address and written back untouched:
"Ada <ada@example.com>", mailto:ada@example.com?subject=Hi, and Google Contacts' several values
"ada@example.com ::: ada@work.example" (the first well-formed one: one address per row). Then a last
column, email_checked, names the address checked on those rows (empty on the others).
A row with more or fewer fields than the header is kept and counted (a warning lists its line): a shorter
one gets empty fields up to the header's width; a longer one gets its results after the header's columns and
its extra fields after the results (JSON: column_N, after the results), so every result stands under its own
name. Without an email field a row is invalid, reason short_row. --strict refuses such a file (exit 2).
A one-column list keeps its header text (email only when it had none) and its BOM or encoding choice.
An Excel workbook (.xlsx) is read from its first tab (--sheet NAME|N for another; a note names the sheet
read and the others), every cell as Excel shows it (JSON: dates in ISO order); written back as a workbook
its cells keep their types. Encrypted workbooks, .xls and .xlsb are refused with what to do; so is a workbook
that would not fit in memory (a bomb), with nothing left behind.
Formula injection (OWASP "CSV injection"): a spreadsheet runs a CSV cell starting with = + - @ (or tab or CR)
as a formula. OWASP's advice, followed here: put ' before such a cell and quote it. Result cells, what the
service sends included, always get it in CSV; the list's own cells with --escape-formulas, which is on by
default when a workbook is written as CSV and off for CSV to CSV (kept byte for byte); --no-escape-formulas
turns it off. A workbook output holds no formula, and JSON carries strings as data.
With no cleaning service configured (clean-url), or with --local, the built-in engine checks in-process:
nothing is sent or spent (signed in, --local keeps the answers the service already gave: an earlier run
of the list, the cache). Otherwise answers are journaled as they arrive: a run stopped by Ctrl-C, a kill
or the monthly allowance continues with --resume and never pays twice; a finished list run again reuses
its answers (--restart pays again).

Statuses (email_status, whichever checker answered; --only and --fail-when take these and the reasons):
${meaningLines(STATUS_MEANINGS)}

Reasons (email_reason; empty when valid, unchecked or not given):
${meaningLines(REASON_MEANINGS)}

Exit codes: 0 every row decided, 3 some rows unchecked (allowance, --max-spend, service errors),
5 a --fail-when condition holds (outputs written), 1 an error (service unreachable, state not writable),
2 bad input or flags, 4 not signed in, 130 (Ctrl-C) or 143 (SIGTERM) interrupted.

Examples:
  mailclean clean contacts.csv -o cleaned.csv
  mailclean clean contacts.csv --only valid,risky -o keep.csv --rejects drop.csv
  mailclean clean contacts.csv --only valid,provider=microsoft -o outlook-valid.csv
  cat list.txt | mailclean clean --format ndjson > results.ndjson
  mailclean clean big.csv --dry-run
  mailclean clean list.csv -o out.csv --summary-json summary.json --report report.html --fail-when 'invalid>5%'`;
