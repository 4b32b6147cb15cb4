// `clean` with the built-in engine in-process: no account, no allowance, no journal (nothing is paid).
import type { Factory } from '../../factory.js';
import { ExitCode } from '../../errors.js';
import type { ProgressReporter } from '../../io/progress.js';
import type { InputLayout } from '../../clean/input/index.js';
import type { ScanResult } from '../../clean/scan.js';
import type { CleanOptions } from './clean.js';
import { outputCounts, writeOptions, type EngineSettings } from './run.js';
import { reportDryRun } from './report.js';
import { finishRun } from './finish.js';
import { runSummary } from '../../clean/summary.js';

const ENGINE_CONCURRENCY = 256;

export async function cleanWithEngine(
  f: Factory,
  o: CleanOptions,
  settings: EngineSettings,
  layout: InputLayout,
  scan: ScanResult,
  progress: ProgressReporter,
  startedAt: number,
): Promise<number> {
  if (o.dryRun) {
    reportDryRun(f, o, scan, { checked: new Set() });
    return ExitCode.ok;
  }
  const [{ Engine }, { checkLocally }, { writeOutputs }] = await Promise.all([
    import('../../verify/index.js'),
    import('../../clean/local.js'),
    import('../../clean/write.js'),
  ]);
  const engine = new Engine({
    dns: { servers: settings.dnsServers },
    smtp: { enabled: settings.smtp, port: settings.smtpPort, from: settings.smtpFrom },
    onWarning: (message) => progress.note(`${f.io.style.yellow('warning:')} ${message}`),
  });
  progress.update({ phase: 'checking', rows: scan.rows, unique: scan.unique.size, toCheck: scan.unique.size, checked: 0, spent: 0, requests: 0 });
  await progress.start();
  let outcome;
  try {
    outcome = await checkLocally(scan.unique, engine, {
      concurrency: ENGINE_CONCURRENCY,
      stop: f.io.signals.stop,
      now: Date.now,
      onChecked: (checked) => progress.update({ checked }),
    });
  } finally {
    progress.stop();
    await engine.close();
  }
  if (outcome.interrupted) {
    f.io.say('Interrupted: nothing was spent; run the command again to check the list.');
    return f.io.signals.exitCode;
  }
  const written = await writeOutputs(layout, outcome.results, { ...writeOptions(o, f), suggestions: true });
  const summary = runSummary({ input: layout.displayName, checker: 'local', startedAt, scan, tally: written.tally, outputs: outputCounts(o, written) });
  const dns = engine.stats().dns;
  f.io.debug(`local engine: ${dns.lookups} domain lookups, ${dns.queries} DNS queries`);
  return finishRun(f, o, summary, written.tally);
}
