import type { Command } from '@commander-js/extra-typings';
import type { Runner } from '../index.js';

function declareFlags(cmd: Command) {
  return cmd
    .argument('<file>', 'a list `mailclean clean` wrote (CSV); the decisions are written back to it')
    .option('--column <name|n>', 'the email column, by header name or 1-based number (default: detected)')
    .option(
      '--check',
      'do not review: check the addresses in email_fixed now and write their verdicts (no terminal needed)',
    )
    .option('--local', 'check the fixes with the built-in engine even when signed in: nothing is spent')
    .addHelpText(
      'after',
      `
Shows each row whose address has a typo suggestion (its email_suggestion cell, or the built-in engine's
suggestion when the list has no such column) and no decision yet, one at a time with the row's other cells:

  a  accept the fix            r  reject it (its email_suggestion cell is emptied; not shown again)
  e  type the address instead  A  accept the fix of every row typed at the same domain
  u  undo the last decision    q  save & quit

Accepted fixes go to the email_fixed column, as \`clean --fix-typos\` writes them. Each decision is kept in
FILE.review.json beside the list (0600) until the list is written: after Ctrl-C, \`review FILE\` again goes on
from it. q (or the last row) writes the list once, atomically, and removes that file; rows without a decision
keep their bytes. Then it offers to check the accepted fixes, as \`verify\` does: the service when signed in
(an answer in the cache within 30 days costs nothing, each address is paid once), else the built-in engine; their
verdicts go to those rows' email_status, email_reason... columns.

Needs a terminal; in a pipeline, \`mailclean clean FILE --fix-typos\` fixes typos without asking.

Exit codes: 0 done, 2 bad input or no terminal, 130 stopped by Ctrl-C (decisions kept beside the list), 1 an error.

Examples:
  mailclean clean --local contacts.csv -o cleaned.csv && mailclean review cleaned.csv
  mailclean review cleaned.csv --check`,
    );
}

/** The flags as commander parsed them, with the file given. */
export type ReviewFlags = ReturnType<ReturnType<typeof declareFlags>['opts']> & { file: string };

export function define(cmd: Command, run: Runner): void {
  declareFlags(cmd).action(
    run(async (f, opts, [file]) => (await import('../review/review.js')).reviewCommand({ ...opts, file }, f)),
  );
}
