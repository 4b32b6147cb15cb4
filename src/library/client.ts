// The library's client: one cleaning account (or none: the built-in engine). The CLI's factory builds one too.
import { Writable } from 'node:stream';
import type { RunPorts } from '../clean/run/events.js';
import type { CleanRequest } from '../clean/run/request.js';
import type { RunResult } from '../clean/run/run-clean.js';
import { UsageError } from '../errors.js';
import { Account } from './account.js';
import type { CheckChoice } from './checker.js';
import { startRun } from './clean-run.js';
import { CLEAN_OPTIONS, checkOptions, VERIFY_OPTIONS } from './option-shapes.js';
import type { ClientSettings } from './settings.js';
import type { CleanInput, CleanOptions, CleanRun, Client, VerifyOptions, VerifyResult } from './types.js';

/** A request as its caller makes it: the account's client adds where it spools and what it reads the time from. */
export type RunRequest = Omit<CleanRequest, 'spoolDir' | 'clock'>;

const discard = () => new Writable({ write: (_chunk, _encoding, done) => done() });

export class MailcleanClient implements Client {
  private readonly accountPromise: Promise<Account>;

  constructor(settings: ClientSettings | Promise<ClientSettings>) {
    this.accountPromise = Promise.resolve(settings).then((resolved) => new Account(resolved));
    this.accountPromise.catch(() => undefined);
  }

  account(): Promise<Account> {
    return this.accountPromise;
  }

  clean(input: CleanInput, options: CleanOptions = {}): CleanRun {
    checkOptions(options, CLEAN_OPTIONS, 'clean');
    return this.cleanRun(input, options);
  }

  cleanRun(input: CleanInput, o: CleanOptions, settled?: () => Promise<void>): CleanRun {
    return startRun(
      async ({ rows, signals }) => {
        const [{ runInput }, { cleanPlan }, { checkChoice }, { FORMATS }] = await Promise.all([
          import('./input.js'),
          import('./clean-options.js'),
          import('./checker.js'),
          import('../clean/write/formats/index.js'),
        ]);
        const given = runInput(input, o.name);
        const { request, maxSpend } = cleanPlan(given.input, o);
        const { format, output } = request.outputs;
        // A program has no terminal to refuse: a binary format's bytes are not rows it could be handed.
        if (FORMATS[format].binary && output === undefined)
          throw new UsageError(`format: ${format} is written to a file only (give output)`);
        const choice = await checkChoice({ ...o, maxSpend }, await this.settings());
        const outputs = { ...request.outputs, stdout: discard(), rows: output ? undefined : rows };
        const full = { ...request, ...given, stdinName: given.name, outputs, signals };
        return this.run(full, choice, { emit: o.onEvent ?? (() => undefined), questions: o.questions });
      },
      o,
      settled,
    );
  }

  /** One run of a request made already (by cleanRun, or from the CLI's flags). */
  async run(request: RunRequest, choice: CheckChoice, ports: RunPorts): Promise<RunResult> {
    const account = await this.accountPromise;
    const { dataDir, clock } = account.settings;
    const warn = (message: string) => ports.emit({ type: 'warning', message });
    const { buildChecker } = await import('./checker.js');
    const checker = await buildChecker(account, choice, request, warn);
    const { runClean } = await import('../clean/run/run-clean.js');
    return runClean({ ...request, spoolDir: `${dataDir}/spool`, clock }, checker, ports);
  }

  async verify(addresses: readonly string[], options: VerifyOptions = {}): Promise<VerifyResult[]> {
    checkOptions(options, VERIFY_OPTIONS, 'verify');
    return this.verifyChecked(addresses, options);
  }

  /** verify, its options checked already (with a client's own, by the one-call `verify`). */
  async verifyChecked(addresses: readonly string[], options: VerifyOptions): Promise<VerifyResult[]> {
    if (!Array.isArray(addresses) || !addresses.every((a) => typeof a === 'string'))
      throw new UsageError('verify: addresses must be a list of strings', "verify(['ada@example.com'])");
    const { verifyWith } = await import('./verify.js');
    return verifyWith(await this.accountPromise, addresses, options);
  }

  async settings(): Promise<ClientSettings> {
    return (await this.accountPromise).settings;
  }

  async close(): Promise<void> {
    await (await this.accountPromise.catch(() => undefined))?.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
