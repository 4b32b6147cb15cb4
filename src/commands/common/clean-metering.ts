// Requests to the cleaning service outside a run (`mailclean api`, a token's check) are booked like `clean`'s, so
// they are no way around the rate limit or the allowance's books.
import { allowanceNews } from '../../api/allowance.js';
import { findRecords } from '../../api/cleaning.js';
import type { HttpClient, HttpResponse } from '../../api/http.js';
import { addressesOf, type RawRequest } from '../../api/raw-request.js';
import { matchRecords, recordVerdict } from '../../clean/check/service/answers.js';
import { isAllowanceRefusal } from '../../clean/check/service/refusals.js';
import { keyOfCell } from '../../clean/scan/cell-key.js';
import { type AccountState, SharedStateError } from '../../clean/state/account-state.js';
import { keepLearned } from '../../clean/state/known-allowance.js';
import { ApiError, CliError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { formatDuration } from '../../quantities.js';

/** The spec's rate limit covers these routes, the clean route among them. */
const VALIDATION_ROUTES = '/api/v1/email-verify';

/** Whether a URL reaches a validation route as a server might route it (a frontend may rewrite `/api/v1/*`). */
export function isValidationRoute(url: URL): boolean {
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    /* malformed escapes: as written */
  }
  const canonical = `/${path.toLowerCase().split('/').filter(Boolean).join('/')}/`;
  return canonical.includes(`${VALIDATION_ROUTES}/`);
}

/**
 * Sends the request once (each attempt would take a slot of the limiter) and records what it spent. An allowance
 * known to be used up does not hold it back: the news may be old, and the response tells.
 */
export function sendBooked(f: Factory, client: HttpClient, request: RawRequest): Promise<HttpResponse> {
  const wait = (ms: number) =>
    f.io.note(`Waiting ${formatDuration(ms)} for a slot of the rate limit (shared with \`clean\`)…`);
  return inSlot(
    f,
    async (state) => {
      if (!state) throw new Error('a request to the cleaning service was sent with no cleaning account');
      // Only a second Ctrl-C abandons it: a response already paid for is counted.
      const response = await client.exchange({ ...request, retries: 0, signal: f.io.signals.abort });
      await record(state, request, response).catch((error: unknown) =>
        f.io.warn(`what this request spent could not be recorded: ${error instanceof Error ? error.message : error}`),
      );
      return response;
    },
    wait,
  );
}

/** What the cleaning service said of its token: taken, refused, or no answer to tell by (and why). */
export type TokenCheck = { verdict: 'accepted' } | { verdict: 'rejected' } | { verdict: 'unknown'; why: string };

/** Asks the cleaning service whether it takes the token in use, booked in the account's limiter like any request. */
export async function checkCleanToken(f: Factory): Promise<TokenCheck> {
  try {
    return { verdict: await inSlot(f, async () => (await f.cleaning()).tokenCheck(f.io.signals.stop)) };
  } catch (error) {
    if (error instanceof CliError || error instanceof SharedStateError)
      return { verdict: 'unknown', why: error.message };
    throw error;
  }
}

/** Runs `send` in a slot of the account's rate limit, which `clean` shares; with no account, at once. */
async function inSlot<T>(
  f: Factory,
  send: (state: AccountState | undefined) => Promise<T>,
  onWait?: (ms: number) => void,
): Promise<T> {
  const account = await (await f.client()).account();
  const state = await account.state();
  const limiter = state?.limiter(account.settings.rate);
  const booking = await limiter?.acquire(f.io.signals.stop, onWait);
  try {
    return await send(state);
  } finally {
    if (booking) await limiter!.release(booking);
  }
}

/** As `clean` settles a run: what the response taught of the allowance, what it spent, and the answers it paid for. */
async function record(state: AccountState, request: RawRequest, response: HttpResponse): Promise<void> {
  const { failure } = response;
  const refusal = failure instanceof ApiError && isAllowanceRefusal(failure) ? failure : undefined;
  const spent = failure ? 0 : addressesOf(request).length;
  keepLearned(state, state.knownAllowance(), {
    spent,
    news: refusal && allowanceNews(refusal.message, refusal.body, refusal.headers),
    usedUp: refusal !== undefined,
  });
  if (spent > 0) await state.recordSpend(spent);
  if (!failure) await keepAnswers(state, request, response.json);
}

/** The answers kept in the account's cache as `clean` keeps them, so nobody pays for them again. */
async function keepAnswers(state: AccountState, request: RawRequest, body: unknown): Promise<void> {
  const records = findRecords(body);
  if (!records || records.length === 0) return;
  const keys = [...new Set(addressesOf(request).flatMap((address) => keyOfCell(address).key ?? []))];
  const found = matchRecords(keys, records);
  const at = new Date(state.clock.now()).toISOString();
  const verdicts = [...found].map(([key, answer]) => recordVerdict(key, answer, at));
  if (verdicts.length > 0) await (await state.cache()).store(verdicts);
}
