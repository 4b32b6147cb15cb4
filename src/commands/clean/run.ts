// `mailclean clean`, orchestrated: read and scan the input, then check with the service or the built-in engine.
import type { ScanResult } from '../../clean/scan/scan.js';
import type { Factory } from '../../factory.js';
import type { Engine } from '../../verify/index.js';
import { capYoungGeneration, youngGenerationGrowsLarge } from '../../young-generation.js';
import { chooseChecker } from './choose-checker.js';
import type { CleanOptions } from './clean.js';
import { reportRagged, reportScan } from './report.js';

/** Runs a clean with typed options; the exit code it returns is the run's. */
export async function runClean(o: CleanOptions, f: Factory): Promise<number> {
  const startedAt = Date.now();
  const profile = await f.profile();
  profile.requireKnown();
  const checker = await chooseChecker(f, o);
  const [{ openInput }, { scanInput }, { ProgressReporter }] = await Promise.all([
    import('../../clean/scan/input/index.js'),
    import('../../clean/scan/scan.js'),
    import('../../io/progress.js'),
  ]);
  const progress = new ProgressReporter(f.io.stderr, { live: f.io.isStderrTTY, quiet: f.io.quiet });
  const stop = f.io.signals.stop;
  const spoolDir = `${f.dataDir}/spool`;
  const layout = await openInput({
    path: o.input,
    stdin: f.io.stdin,
    spoolDir,
    column: o.column,
    sheet: o.sheet,
    encoding: o.encoding,
    strict: o.strict,
    signal: stop,
  });
  let scan: ScanResult | undefined;
  let engine: Engine | undefined;
  const stopWatchingMemory = youngGenerationGrowsLarge ? capYoungGeneration() : () => undefined;
  try {
    if (checker !== 'service' && !o.dryRun)
      engine = await (await import('./with-engine.js')).startEngine(f, checker, progress);
    await progress.start();
    // Verdicts are kept by address number (VerdictTable): a run that writes reads each row's number in its write pass.
    const keepRowOrdinals = !o.dryRun;
    // Each new address goes to the engine, which looks its domain up while the rest is read.
    const onNewKey = engine?.prefetch.bind(engine);
    scan = await scanInput(layout, {
      spillDir: spoolDir,
      keepRowOrdinals,
      onNewKey,
      onRows: (rows) => progress.update({ rows }),
      signal: stop,
    });
    progress.stop();
    if (layout.encodingGuessed)
      f.io.note(`${layout.displayName}: not UTF-8; read as Windows-1252 (use --encoding to choose)`);
    reportScan(f, layout.displayName, layout.emailColumnName, scan);
    const code =
      checker === 'service'
        ? await (await import('./with-service.js')).cleanWithService(f, o, layout, scan, progress, startedAt)
        : await (await import('./with-engine.js')).cleanWithEngine(f, o, engine, layout, scan, progress, startedAt);
    // Last, where it is read: which rows to look at in the input.
    reportRagged(f, layout, scan);
    return code;
  } finally {
    stopWatchingMemory();
    progress.stop();
    await engine?.close();
    scan?.release();
    await layout.cleanup();
  }
}
