// The one place a store is chosen: the data directory, or a shared store named by its URL's scheme. A new store is
// one adapter beside disk/ and redis/ and one line in SHARED_STORES.
import { UsageError } from '../../errors.js';
import { redactUrl } from '../../redact.js';
import { type Identity, resolveAccount } from './account-key.js';
import {
  type AccountDirectory,
  type AccountState,
  type MachineState,
  SharedStateError,
  type StateLocation,
} from './account-state.js';

/** A shared store: how its URL is checked (a usage error names `source`), and how it opens an account's state. */
interface SharedStore {
  /** What is wrong with the URL beyond its scheme, if anything. */
  problem(url: URL): string | undefined;
  open(url: string, account: string, machine: MachineState): Promise<AccountState>;
  directory(url: string): Promise<ClosableDirectory>;
}

export interface ClosableDirectory extends AccountDirectory {
  close(): void;
}

const REDIS: SharedStore = {
  problem: (url) =>
    url.pathname && url.pathname !== '/' && !/^\/\d+$/.test(url.pathname)
      ? 'the database must be a number (/0, /1 …)'
      : undefined,
  open: async (url, account, machine) =>
    (await import('./redis/redis-state.js')).RedisAccountState.connect(url, account, machine),
  directory: async (url) => (await import('./redis/redis-directory.js')).RedisAccountDirectory.connect(url),
};

const SHARED_STORES: Record<string, SharedStore> = { 'redis:': REDIS, 'rediss:': REDIS };

/** The account's state where `where` says; a shared store that cannot be reached rejects (SharedStateError). */
export async function openAccountState(where: StateLocation): Promise<AccountState> {
  const { DiskAccountState } = await import('./disk/disk-state.js');
  const disk = new DiskAccountState(where.dataDir, where.account, where.clock);
  if (where.sharedUrl === undefined) return disk;
  return storeOf(where.sharedUrl, 'the shared state').open(where.sharedUrl, where.account, disk);
}

/** With a shared store, that store first, so that every machine finds the same account. */
export async function openAccountDirectory(where: Omit<StateLocation, 'account'>): Promise<ClosableDirectory> {
  const { DiskAccountDirectory } = await import('./disk/account-directory.js');
  const disk = new DiskAccountDirectory(where.dataDir);
  if (where.sharedUrl === undefined) return Object.assign(disk, { close: () => undefined });
  const shared = await storeOf(where.sharedUrl, 'the shared state').directory(where.sharedUrl);
  return {
    find: async (identities) => (await shared.find(identities)) ?? (await disk.find(identities)),
    remember: async (identities, account) => {
      await shared.remember(identities, account);
      await disk.remember(identities, account);
    },
    close: () => shared.close(),
  };
}

/** A shared store that cannot be reached leaves this machine's directory to answer: opening the state says why. */
export async function accountOf(where: Omit<StateLocation, 'account'>, identity: Identity): Promise<string> {
  const directory = await openAccountDirectory(where).catch((error: unknown) => {
    if (error instanceof SharedStateError) return openAccountDirectory({ dataDir: where.dataDir });
    throw error;
  });
  try {
    return await resolveAccount(directory, identity);
  } finally {
    directory.close();
  }
}

/** A shared store's URL as given (--shared, MAILCLEAN_REDIS_URL, the profile): a usage error naming `source`. */
export function checkSharedUrl(value: string, source: string): string {
  storeOf(value, source);
  return value;
}

function storeOf(value: string, source: string): SharedStore {
  const hint = 'write it as redis://HOST:PORT[/DB]';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${source}: "${redactUrl(value)}" is not a URL`, hint);
  }
  const store = Object.hasOwn(SHARED_STORES, url.protocol) ? SHARED_STORES[url.protocol] : undefined;
  if (!store) throw new UsageError(`${source}: "${redactUrl(value)}" is not a redis:// URL`, hint);
  const problem = store.problem(url);
  if (problem) throw new UsageError(`${source}: "${redactUrl(value)}": ${problem}`);
  return store;
}
