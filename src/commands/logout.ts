import type { Factory } from '../factory.js';
import type { ServiceChoice } from './common/options.js';

export async function logout(o: { service: ServiceChoice }, f: Factory): Promise<number> {
  const service = o.service;
  // Known from the profile alone: forgetting a token kept in the OS credential store never needs to read it.
  const stored = (await f.profile()).storedTokens();
  const forgotten: string[] = [];
  if (service !== 'clean' && (stored.token || stored['cdp-token'])) {
    (await f.profile()).saveCredentials({ token: undefined, 'cdp-token': undefined, 'user-id': undefined });
    forgotten.push('the platform');
  }
  if (service !== 'platform' && stored['clean-token']) {
    (await f.profile()).saveCredentials({ 'clean-token': undefined });
    forgotten.push('the cleaning service');
  }
  f.io.note(
    forgotten.length
      ? `Logged out of ${forgotten.join(' and ')} (profile "${f.profileName}").`
      : `No stored tokens to forget in profile "${f.profileName}".`,
  );
  if (service !== 'clean' && f.io.env.MAILCLEAN_TOKEN)
    f.io.warn('MAILCLEAN_TOKEN is set in the environment and still applies.');
  if (service !== 'platform' && f.io.env.MAILCLEAN_CLEAN_TOKEN)
    f.io.warn('MAILCLEAN_CLEAN_TOKEN is set in the environment and still applies.');
  return 0;
}
