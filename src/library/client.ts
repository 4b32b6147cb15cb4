// The library's client: one cleaning account (or none: the built-in engine), its settings resolved once, its
// connection and state opened on first use and closed with it. `clean` and `verify` alone make a client for one call.
// The CLI's `clean` and `verify` run through `MailcleanClient` too (run() and verify()), with their flags' values.
import { Writable } from 'node:stream';
import type { RunPorts } from '../clean/run/events.js';
import type { CleanRequest } from '../clean/run/request.js';
import type { RunResult } from '../clean/run/run-clean.js';
import { UsageError } from '../errors.js';
import { Account } from './account.js';
import { type CheckChoice, engineSettings } from './checker.js';
import { startRun } from './clean-run.js';
import { CLEAN_OPTIONS, checkOptions, VERIFY_OPTIONS } from './option-shapes.js';
import type { ClientSettings } from './settings.js';
import type { CleanInput, CleanOptions, CleanRun, Client, VerifyOptions, VerifyResult } from './types.js';

const discard = () => new Writable({ write: (_chunk, _encoding, done) => done() });

export class MailcleanClient implements Client {
  private readonly account: Promise<Account>;

  constructor(settings: ClientSettings | Promise<ClientSettings>) {
    this.account = Promise.resolve(settings).then((resolved) => new Account(resolved));
    this.account.catch(() => undefined);
  }

  clean(input: CleanInput, options: CleanOptions = {}): CleanRun {
    checkOptions(options, CLEAN_OPTIONS, 'clean');
    return this.cleanRun(input, options);
  }

  cleanRun(input: CleanInput, o: CleanOptions, settled?: () => Promise<void>): CleanRun {
    return startRun(
      async ({ rows, signals }) => {
        const [{ runInput }, { cleanPlan }] = await Promise.all([import('./input.js'), import('./clean-options.js')]);
        const given = runInput(input, o.name);
        const account = await this.account;
        const { request, choice } = cleanPlan(
          given.input,
          o,
          account.settings,
          await engineSettings(o, account.settings.env),
        );
        const outputs = { ...request.outputs, stdout: discard(), rows: request.outputs.output ? undefined : rows };
        const full: CleanRequest = { ...request, ...given, stdinName: given.name, outputs, signals };
        return this.run(full, choice, { emit: o.onEvent ?? (() => undefined), questions: o.questions });
      },
      o,
      settled,
    );
  }

  /** One run with a request made already (the CLI's flags): the checker chosen and built, then the run. */
  async run(request: CleanRequest, choice: CheckChoice, ports: RunPorts): Promise<RunResult> {
    const account = await this.account;
    const { buildChecker } = await import('./checker.js');
    const checker = await buildChecker(account, choice, (message) => ports.emit({ type: 'warning', message }));
    const { runClean } = await import('../clean/run/run-clean.js');
    return runClean(request, checker, ports);
  }

  async verify(addresses: readonly string[], options: VerifyOptions = {}): Promise<VerifyResult[]> {
    checkOptions(options, VERIFY_OPTIONS, 'verify');
    return this.verifyChecked(addresses, options);
  }

  /** verify, its options checked already (with a client's own, by the one-call `verify`). */
  async verifyChecked(addresses: readonly string[], options: VerifyOptions): Promise<VerifyResult[]> {
    if (!Array.isArray(addresses) || !addresses.every((a) => typeof a === 'string'))
      throw new UsageError('verify: addresses must be a list of strings', "verify(['ada@example.com'])");
    const account = await this.account;
    const { verifyWith } = await import('./verify.js');
    return verifyWith(account, addresses, options, await engineSettings(options, account.settings.env));
  }

  /** The client's settings, once resolved. */
  async settings(): Promise<ClientSettings> {
    return (await this.account).settings;
  }

  async close(): Promise<void> {
    await (await this.account.catch(() => undefined))?.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
