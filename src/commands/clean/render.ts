// What `clean` tells its user while it runs: each event as a line on stderr, or as the live progress line.
import type { PrecheckOutcome } from '../../clean/check/precheck.js';
import type { RunEvent } from '../../clean/run/events.js';
import type { Factory } from '../../factory.js';
import type { ProgressReporter } from '../../io/progress.js';
import type { VerifyEvent } from '../../library/types.js';
import { byCodeUnits, formatCount, quantity } from '../../quantities.js';

/** Lines shown of the rows with more or fewer fields than the header. */
const RAGGED_SHOWN = 5;

type Handlers = { [T in RunEvent['type']]?: (event: Extract<RunEvent, { type: T }>) => void };

/** Renders the run's events as they come; `finish` says last what is best read last. */
export function eventRenderer(f: Factory, progress: ProgressReporter, checker: 'service' | 'engine') {
  let raggedRows: Extract<RunEvent, { type: 'ragged' }> | undefined;
  const handlers: Handlers = {
    ...liveHandlers(f, progress),
    ...noteHandlers(f, checker),
    ragged: (e) => (raggedRows = e),
  };
  return {
    emit: (event: RunEvent): void => (handlers[event.type] as ((e: RunEvent) => void) | undefined)?.(event),
    finish: (): void => {
      if (raggedRows) ragged(f, raggedRows);
    },
  };
}

/** The live progress line, and what is written above it while it is drawn. */
function liveHandlers(f: Factory, progress: ProgressReporter): Handlers {
  const { io } = f;
  const above = (text: string) => progress.note(io.secrets.redact(text));
  return {
    progress: (e) => progress.update(e.change),
    'progress-live': (e) => (e.live ? void progress.start() : progress.stop()),
    'limit-wait': (e) => progress.waiting(e.ms),
    stopping: () => above('Stopping after the requests in flight (Ctrl-C again to stop at once)…'),
    'awaiting-runner': (e) =>
      above(
        `${quantity(e.addresses, 'address', 'addresses')} ${e.addresses === 1 ? 'is' : 'are'} being checked by another ` +
          'runner on this account; waiting for its answers…',
      ),
    warning: (e) => (progress.drawing ? above(`${io.style.yellow('warning:')} ${e.message}`) : io.warn(e.message)),
    retry: (e) => io.debug(`retrying a batch: ${e.message}`),
    debug: (e) => io.debug(e.message),
  };
}

function noteHandlers(f: Factory, checker: 'service' | 'engine'): Handlers {
  const { io } = f;
  return {
    'input-read': (e) => inputRead(f, e),
    scanned: (e) => scanned(f, e),
    'list-busy': (e) =>
      io.note(`Another run (${e.owner}) is cleaning this list with this account; waiting for it to finish…`),
    'list-taken-over': (e) => io.note(`Took over this list's lock from ${e.owner}: ${e.why}.`),
    'journal-damaged': (e) =>
      io.warn(
        `${quantity(e.lines, 'line')} of ${e.path} could not be read and ${e.lines === 1 ? 'was' : 'were'} skipped: ` +
          'those addresses are checked again (--restart discards the journal)',
      ),
    resumed: (e) => (checker === 'service' ? resumed(f, e.already, e.unique) : undefined),
    'from-cache': (e) => (checker === 'service' ? fromCache(f, e.addresses, e.maxAgeMs) : undefined),
    precheck: (e) => precheckNote(f, e.outcome),
    kept: (e) => (checker === 'engine' && e.kept > 0 ? kept(f, e) : undefined),
    'list-changed': (e) =>
      io.note(
        `${e.displayName} changed during the run: its rows get the answers of their addresses, and addresses new to it are unchecked.`,
      ),
    'outputs-kept': (e) => {
      const one = e.outputs.length === 1;
      io.note(
        `Nothing was checked: ${e.outputs.join(' and ')} ${one ? 'is' : 'are'} left as ${one ? 'it was' : 'they were'}.`,
      );
    },
    'nothing-sent': () => io.note('Nothing was sent.'),
    interrupted: (e) =>
      io.say(
        e.answersSaved === undefined
          ? 'Interrupted: nothing was spent; run the command again to check the list.'
          : `Interrupted: ${quantity(e.answersSaved, 'answer')} saved. Run the same command with --resume to continue.`,
      ),
  };
}

const SHEETS_SHOWN = 5;

/** How the input was read: a guessed encoding; a workbook's sheet and its other sheets, formulas read empty. */
function inputRead(f: Factory, e: Extract<RunEvent, { type: 'input-read' }>): void {
  if (e.encodingGuessed) f.io.note(`${e.displayName}: not UTF-8; read as Windows-1252 (use --encoding to choose)`);
  const book = e.workbook;
  if (!book) return;
  const others = book.sheets.filter((name) => name !== book.sheet);
  const more = others.length > SHEETS_SHOWN ? `, and ${others.length - SHEETS_SHOWN} more` : '';
  const which = others.length
    ? `${quantity(others.length, 'other sheet')}: ${others.slice(0, SHEETS_SHOWN).join(', ')}${more}; --sheet NAME or N reads another`
    : 'its only sheet';
  f.io.note(`${e.displayName}: read sheet "${book.sheet}" (${which})`);
  const empty = book.formulasWithoutResult;
  if (empty === 0) return;
  f.io.warn(
    `${quantity(empty, 'formula cell')} of sheet "${book.sheet}" had no saved result and ${empty === 1 ? 'was' : 'were'} read as empty: ` +
      'open the workbook in Excel or LibreOffice and save it, which stores the results',
  );
}

function scanned(f: Factory, e: Extract<RunEvent, { type: 'scanned' }>): void {
  f.io.note(
    `${e.displayName}: ${quantity(e.rows, 'row')}, email column "${e.column}", ` +
      `${quantity(e.unique, 'unique address', 'unique addresses')}, ${formatCount(e.blank)} blank or malformed`,
  );
  if (e.extracted === 0) return;
  const cells = e.extracted === 1 ? 'email cell holds its address' : 'email cells hold their address';
  f.io.note(
    `${formatCount(e.extracted)} ${cells} inside a name, a mailto: link or a " ::: " list: that address is checked ` +
      '(of several, the first well-formed one) and shown in the column email_checked.',
  );
}

/** Rows kept with another number of fields than the header: how many, and where, so the user can look. */
function ragged(f: Factory, e: Extract<RunEvent, { type: 'ragged' }>): void {
  const shown = e.lines.slice(0, RAGGED_SHOWN).join(', ');
  const more = e.rows > RAGGED_SHOWN ? `, and ${formatCount(e.rows - RAGGED_SHOWN)} more` : '';
  const than = e.hasHeader ? `the header (${e.columns})` : `the first row (${e.columns})`;
  f.io.warn(
    `${quantity(e.rows, 'row')} had more or fewer fields than ${than}: line${e.rows === 1 ? '' : 's'} ${shown}${more}; ` +
      'kept as they are (--strict refuses such a file)',
  );
}

function resumed(f: Factory, already: number, unique: number): void {
  if (already > 0 && already === unique) {
    f.io.note(
      `All ${quantity(already, 'address', 'addresses')} were answered by an earlier run of this list: nothing is sent (--restart checks them again).`,
    );
  } else if (already > 0) {
    f.io.note(
      `Resuming: ${quantity(already, 'address', 'addresses')} already checked ${already === 1 ? 'is' : 'are'} not sent again.`,
    );
  }
}

function fromCache(f: Factory, addresses: number, maxAgeMs: number): void {
  const days = maxAgeMs / 86_400_000;
  const age = Number.isInteger(days) ? `${days} day${days === 1 ? '' : 's'}` : `${Math.round(maxAgeMs / 3_600_000)} h`;
  f.io.note(
    `${quantity(addresses, 'address', 'addresses')} answered within ${age} ${addresses === 1 ? 'comes' : 'come'} ` +
      'from the cache: not sent (--max-age 0 asks again).',
  );
}

/** `clean` and `verify` with no service and no --local: the engine checks, and the service is one login away. */
export function noServiceNote(f: Factory): void {
  f.io.note(
    'No cleaning service configured: checking with the built-in engine in-process (nothing spent). ' +
      'To use the service: `mailclean login --api-url URL --clean-url URL`.',
  );
}

/** What a `verify` call tells as it goes (`verify`, `review`'s check): warnings, the precheck, debug lines. */
export function verifyNotes(f: Factory): (event: VerifyEvent) => void {
  return (event) => {
    if (event.type === 'warning') f.io.warn(event.message);
    else if (event.type === 'precheck') precheckNote(f, event.outcome);
    else f.io.debug(event.message);
  };
}

/** What the precheck decided for free, and whether its domain checks were skipped. */
export function precheckNote(f: Factory, outcome: PrecheckOutcome): void {
  if (outcome.unreachable !== undefined) {
    f.io.note(
      `Precheck: domain checks skipped, DNS does not answer (${outcome.unreachable}; --dns-server names a resolver); ` +
        (outcome.decidedCount > 0
          ? `${quantity(outcome.decidedCount, 'address', 'addresses')} decided without it (${reasonsText(outcome.byReason)}): not sent.`
          : 'none could be decided without it: every address is sent.'),
    );
  } else if (outcome.decidedCount > 0) {
    f.io.note(
      `Precheck: ${quantity(outcome.decidedCount, 'address', 'addresses')} decided here for free ` +
        `(${reasonsText(outcome.byReason)}): not sent.`,
    );
  }
}

function kept(f: Factory, e: Extract<RunEvent, { type: 'kept' }>): void {
  const parts: string[] = [];
  if (e.fromJournal > 0) parts.push(`${formatCount(e.fromJournal)} from an earlier run of this list`);
  if (e.fromCache > 0) parts.push(`${formatCount(e.fromCache)} from the cache`);
  const rest =
    e.toCheck > 0
      ? `checking the other ${formatCount(e.toCheck)} with the built-in engine`
      : 'nothing is left for the built-in engine';
  f.io.note(`Keeping ${quantity(e.kept, 'answer')} the service gave (${parts.join(', ')}); ${rest}.`);
}

export function reasonsText(byReason: ReadonlyMap<string, number>): string {
  return [...byReason]
    .sort((a, b) => b[1] - a[1] || byCodeUnits(a[0], b[0]))
    .map(([reason, n]) => `${reason} ${formatCount(n)}`)
    .join(', ');
}
