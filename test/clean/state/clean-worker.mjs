// One run of the clean service in a process of its own, on the account state that MAILCLEAN_WORKER names (the
// contract suite starts several at once). Built code (dist/): `npm test` builds first.
import { Writable } from 'node:stream';
import { CleaningClient } from '../../../dist/api/cleaning.js';
import { HttpClient } from '../../../dist/api/http.js';
import { ServiceChecker } from '../../../dist/clean/check/service/service-checker.js';
import { runClean } from '../../../dist/clean/run/run-clean.js';
import { openAccountState } from '../../../dist/clean/state/open-state.js';
import { realClock } from '../../../dist/clock.js';

const { where, input, url, token, spoolDir } = JSON.parse(process.env.MAILCLEAN_WORKER);
const state = await openAccountState(where);
const client = new CleaningClient(
  new HttpClient({ baseUrl: url, serviceName: 'cleaning service', token: () => token }),
);
const checker = new ServiceChecker({
  state,
  client,
  service: url,
  rate: { requests: 1_000, windowMs: 1_000 },
  concurrency: 4,
  clock: realClock,
});
const stop = new AbortController();
const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
const request = {
  input,
  strict: false,
  outputs: { format: 'csv', stdout: discard },
  dryRun: false,
  yes: true,
  maxAgeMs: 86_400_000,
  clock: realClock,
  spoolDir,
  signals: { stop: stop.signal, abort: stop.signal, exitCode: 130 },
};
const tell = (event) => {
  if (event.type === 'warning') process.stderr.write(`warning: ${event.message}\n`);
};
try {
  const result = await runClean(request, checker, { emit: tell });
  process.stderr.write(`${JSON.stringify({ kind: result.kind, spent: result.summary?.spent })}\n`);
  process.exitCode = result.kind === 'finished' ? result.exitCode : 9;
} finally {
  await state.close();
}
