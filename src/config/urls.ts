import { UsageError } from '../errors.js';
import { redactUrl } from '../redact.js';

export interface ServiceUrls {
  'api-url'?: string;
  'clean-url'?: string;
}

/** An http(s) URL without trailing slashes; anything else is a usage error naming where it came from. */
export function validateUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `${source}: "${redactUrl(value)}" is not a valid URL`,
      'expected something like https://api.example.com',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${source}: "${redactUrl(value)}" is not an http or https URL`);
  }
  return url.href.replace(/\/+$/, '');
}

/** The URLs given for this command by flag, else environment (never the profile's). */
export function givenUrls(
  flags: { apiUrl?: string; cleanUrl?: string },
  env: Record<string, string | undefined>,
): ServiceUrls {
  const given = (flag: string | undefined, flagName: string, envName: string) => {
    if (flag !== undefined) return validateUrl(flag, flagName);
    return env[envName] ? validateUrl(env[envName], envName) : undefined;
  };
  const urls = {
    'api-url': given(flags.apiUrl, '--api-url', 'MAILCLEAN_API_URL'),
    'clean-url': given(flags.cleanUrl, '--clean-url', 'MAILCLEAN_CLEAN_URL'),
  };
  return Object.fromEntries(Object.entries(urls).filter(([, url]) => url));
}
