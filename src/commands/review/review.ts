// `mailclean review FILE`: a person decides each typo suggestion of a cleaned list on the terminal; the decisions go
// back into the list (src/review/ holds what is not about the terminal; the flags are in flags/review.ts).
import { join } from 'node:path';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { promptConfirm } from '../../io/prompt.js';
import { decisionsChange } from '../../review/changes.js';
import { Review } from '../../review/decisions.js';
import { openList, reviewItems } from '../../review/list.js';
import { checkWritable, rewriteList } from '../../review/rewrite.js';
import { loadSteps, removeSideFile, sideFilePath } from '../../review/side-file.js';
import type { ReviewFlags } from '../flags/review.js';
import { checkFixes } from './check-fixes.js';
import { runSession } from './session.js';

export async function reviewCommand(o: ReviewFlags, f: Factory): Promise<number> {
  if (o.check) return checkFixes(f, o);
  if (f.io.stdin.isTTY !== true || f.io.stdout.isTTY !== true)
    throw new UsageError(
      `review needs a terminal; to fix typos in a pipeline use: mailclean clean ${o.file} --fix-typos`,
    );
  const layout = await openList({ path: o.file, spoolDir: join(f.dataDir, 'spool'), column: o.column });
  let review: Review;
  try {
    checkWritable(o.file);
    review = new Review(await reviewItems(layout));
  } finally {
    await layout.cleanup();
  }
  const { kept, dropped } = review.replay(loadSteps(o.file));
  if (kept > 0) f.io.note(`Going on from ${kept} decision${kept === 1 ? '' : 's'} kept in ${sideFilePath(o.file)}.`);
  if (dropped > 0)
    f.io.warn(`${dropped} kept decision${dropped === 1 ? '' : 's'} left out: their rows hold another address now`);
  if (review.items.length === 0) {
    removeSideFile(o.file);
    f.io.note(`${o.file}: no typo suggestion to review.`);
    return 0;
  }
  if ((await runSession(f, review, o.file)) === 'stopped') {
    const { accepted, rejected } = review.counts();
    f.io.say(
      `Stopped: ${accepted + rejected} decision${accepted + rejected === 1 ? '' : 's'} kept in ${sideFilePath(o.file)}; ` +
        `\`mailclean review ${o.file}\` goes on from them.`,
    );
    return f.io.signals.received ? f.io.signals.exitCode : 130;
  }
  return finish(f, o, review);
}

/** Writes the decisions into the list, then offers to check the accepted fixes. */
async function finish(f: Factory, o: ReviewFlags, review: Review): Promise<number> {
  const decisions = review.decisions();
  if (decisions.size === 0) {
    removeSideFile(o.file);
    f.io.note(`No decision made: ${o.file} is unchanged.`);
    return 0;
  }
  const layout = await openList({ path: o.file, spoolDir: join(f.dataDir, 'spool'), column: o.column });
  const change = decisionsChange(decisions, layout.header);
  try {
    await rewriteList(layout, change);
  } finally {
    await layout.cleanup();
  }
  removeSideFile(o.file);
  const { accepted, rejected } = review.counts();
  f.io.note(`${o.file}: ${accepted} fix${accepted === 1 ? '' : 'es'} accepted, ${rejected} rejected, written.`);
  if (change.stale > 0)
    f.io.warn(`${change.stale} decision${change.stale === 1 ? '' : 's'} left out: the rows changed in ${o.file}`);
  if (accepted === 0) return 0;
  const later = `To check them later: mailclean review ${o.file} --check`;
  const fixes = `${accepted} accepted fix${accepted === 1 ? '' : 'es'}`;
  if (!f.io.canPrompt || !(await promptConfirm(f.io, `Check ${fixes} now?`, false))) {
    f.io.note(later);
    return 0;
  }
  const rows = new Map([...decisions].flatMap(([row, d]) => (d.kind === 'accept' ? [[row, d.address] as const] : [])));
  return checkFixes(f, o, rows);
}
