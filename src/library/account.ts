// The cleaning account a client works for: a signed-in client of the service, the account's key and its state,
// opened on first use and closed with the client.
import type { CleaningClient } from '../api/cleaning.js';
import type { Connection } from '../api/connect.js';
import { type AccountState, SharedStateError } from '../clean/state/account-state.js';
import { markTokenAccepted } from '../config/accepted-tokens.js';
import { AuthError } from '../errors.js';
import type { ClientSettings } from './settings.js';

export class Account {
  private connection?: Promise<Connection>;
  private keyPromise?: Promise<string | undefined>;
  private statePromise?: Promise<AccountState>;

  constructor(readonly settings: ClientSettings) {}

  /** The service's client with this account's token; the first answer marks the token as taken (`auth status`). */
  async cleaning(): Promise<CleaningClient> {
    const { cleanUrl, token, dataDir } = this.settings;
    if (!cleanUrl) throw new Error('no cleaning service is configured');
    if (!token) throw new AuthError('not signed in to the cleaning service', this.settings.authHint);
    this.connection ??= import('../api/connect.js').then(({ connect }) =>
      connect({
        baseUrl: cleanUrl,
        serviceName: 'cleaning service',
        setting: 'clean-url',
        token: () => token,
        refusedHint: this.settings.refusedHint,
        env: this.settings.env,
        secrets: this.settings.secrets,
        debug: this.settings.debug,
      }),
    );
    const [{ CleaningClient }, { http }] = await Promise.all([import('../api/cleaning.js'), this.connection]);
    const client = new CleaningClient(http);
    const clean = client.clean.bind(client);
    let marked = false;
    client.clean = async (emails, signal) => {
      const records = await clean(emails, signal);
      if (!marked) markTokenAccepted(dataDir, cleanUrl, token, this.settings.clock.now());
      marked = true;
      return records;
    };
    return client;
  }

  /** The account's key; undefined with no service or no token. A sign-in's `userId` is kept as one more name. */
  private key(userId?: string): Promise<string | undefined> {
    const { cleanUrl, token, email, dataDir, sharedUrl } = this.settings;
    if (!cleanUrl || !token) return Promise.resolve(undefined);
    this.keyPromise ??= import('../clean/state/open-state.js').then(({ accountOf }) =>
      accountOf({ dataDir, sharedUrl }, { cleanUrl, token, email, userId }),
    );
    return this.keyPromise;
  }

  /**
   * The account's state (none with no service or no token), in the shared store if one is named; rejects
   * (SharedStateError) when that is down.
   */
  async state(userId?: string): Promise<AccountState | undefined> {
    const account = await this.key(userId);
    if (!account) return undefined;
    const { dataDir, sharedUrl, clock } = this.settings;
    this.statePromise ??= import('../clean/state/open-state.js').then(({ openAccountState }) =>
      openAccountState({ dataDir, account, sharedUrl, clock }),
    );
    // A store that could not be reached is tried again by the next run.
    this.statePromise.catch(() => (this.statePromise = undefined));
    return this.statePromise;
  }

  /** The state, or what `down` makes of a shared store that cannot be reached (a warning, or its own error). */
  stateOr(down: (error: SharedStateError) => void): Promise<AccountState | undefined> {
    return this.state().catch((error: unknown) => {
      if (!(error instanceof SharedStateError)) throw error;
      down(error);
      return undefined;
    });
  }

  async close(): Promise<void> {
    const [connection, state] = [this.connection, this.statePromise];
    this.connection = this.statePromise = undefined;
    await (await state?.catch(() => undefined))?.close();
    await (await connection?.catch(() => undefined))?.close();
  }
}
