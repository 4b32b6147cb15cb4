// `mailclean clean`, orchestrated: read and scan the input, then check with the service or the built-in engine.
import { Writable } from 'node:stream';
import type { ScanResult } from '../../clean/scan.js';
import type { OutputCount } from '../../clean/summary.js';
import type { WriteOptions, WriteSummary } from '../../clean/write.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { parseDnsServers } from '../../verify/index.js';
import type { CleanOptions } from './clean.js';
import { reportRagged, reportScan } from './report.js';

/** Runs a clean with typed options; the exit code it returns is the run's. */
export async function runClean(o: CleanOptions, f: Factory): Promise<number> {
  const startedAt = Date.now();
  const profile = await f.profile();
  profile.requireKnown();
  const checker = await chooseChecker(f, o);
  const [{ openInput }, { scanInput }, { ProgressReporter }] = await Promise.all([import('../../clean/input/index.js'), import('../../clean/scan.js'), import('../../io/progress.js')]);
  const progress = new ProgressReporter(f.io.stderr, { live: f.io.isStderrTTY, quiet: f.io.quiet });
  const stop = f.io.signals.stop;
  const layout = await openInput({ path: o.input, stdin: f.io.stdin, spoolDir: `${f.dataDir}/spool`, column: o.column, encoding: o.encoding, strict: o.strict, signal: stop });
  try {
    await progress.start();
    const scan = await scanInput(layout, (rows) => progress.update({ rows }), stop);
    progress.stop();
    if (layout.encodingGuessed) f.io.note(`${layout.displayName}: not UTF-8; read as Windows-1252 (use --encoding to choose)`);
    reportScan(f, layout.displayName, layout.emailColumnName, scan);
    const code =
      checker === 'service'
        ? await (await import('./service.js')).cleanWithService(f, o, layout, scan, progress, startedAt)
        : await (await import('./engine.js')).cleanWithEngine(f, o, checker, layout, scan, progress, startedAt);
    // Last, where it is read: which rows to look at in the input.
    reportRagged(f, layout, scan);
    return code;
  } finally {
    progress.stop();
    await layout.cleanup();
  }
}

/** Where and how the rows are written, whichever checker decided them; a signal stops the writing cleanly. */
export function writeOptions(o: CleanOptions, f: Factory, scan: ScanResult): WriteOptions {
  const { format, output, backup, only, rejects } = o;
  return { format, output, backup, stdout: f.io.stdout, only, rejects, checked: scan.extracted > 0, signal: f.io.signals.stop };
}

/**
 * A pass that writes nothing, for a run that ends without outputs but owes side files (--summary-json, --report,
 * the job summary) their counts; undefined when none is wanted, so a stop is not held up by a pass over the file.
 * Only a second signal interrupts it: the first already asked the run to stop, and this is how it stops.
 */
export function countOnly(o: CleanOptions, f: Factory, scan: ScanResult): WriteOptions | undefined {
  if (!o.summaryJson && !o.report && !f.io.env.GITHUB_STEP_SUMMARY) return undefined;
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  return { ...writeOptions(o, f, scan), output: undefined, rejects: undefined, backup: undefined, stdout: discard, signal: f.io.signals.abort };
}

/** Each output with the rows it received, for the summary. */
export function outputCounts(o: CleanOptions, written: WriteSummary): OutputCount[] {
  const counts: OutputCount[] = [{ path: o.output?.given ?? '-', role: 'output', rows: written.written }];
  if (o.rejects) counts.push({ path: o.rejects.given, role: 'rejects', rows: written.rejected });
  return counts;
}

/**
 * The service when one is configured (and not --local), else the built-in engine, with one note saying so. A
 * profile that holds a cleaning token but no clean-url is a mistake to report, never a reason to check elsewhere.
 * The engine's settings are checked here, before anything is read.
 */
async function chooseChecker(f: Factory, o: CleanOptions): Promise<'service' | EngineSettings> {
  const profile = await f.profile();
  if (!o.local && profile.urls().cleanUrl !== undefined) {
    if (o.engine.given) throw new UsageError(`${o.engine.given} works with the built-in engine only (--local)`);
    return 'service';
  }
  if (!o.local && profile.token('clean').value) {
    throw new UsageError(
      `no clean-url is configured for profile "${f.profileName}", which holds a cleaning token`,
      'pass --clean-url URL or run `mailclean config set clean-url URL` (or --local to check with the built-in engine)',
    );
  }
  const settings = engineSettings(o, f.io.env);
  if (!o.local) {
    f.io.note('No cleaning service configured: checking with the built-in engine in-process (nothing spent). ' + 'To use the service: `mailclean login --api-url URL --clean-url URL`.');
  }
  return settings;
}

/** What the built-in engine runs with: --smtp and friends, DNS servers from --dns-server or MAILCLEAN_DNS_SERVERS. */
export interface EngineSettings {
  smtp: boolean;
  smtpPort: number;
  smtpFrom?: string;
  dnsServers?: string[];
}

function engineSettings(o: CleanOptions, env: Record<string, string | undefined>): EngineSettings {
  const [source, list] = o.engine.dnsServers !== undefined ? ['--dns-server', o.engine.dnsServers] : ['MAILCLEAN_DNS_SERVERS', env.MAILCLEAN_DNS_SERVERS?.trim() || undefined];
  let dnsServers: string[] | undefined;
  if (list !== undefined) {
    const parsed = parseDnsServers(list);
    if ('error' in parsed) throw new UsageError(`${source}: ${parsed.error}`);
    dnsServers = parsed.servers;
  }
  return { smtp: o.engine.smtp, smtpPort: o.engine.smtpPort, smtpFrom: o.engine.smtpFrom, dnsServers };
}
