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
  const pick = (flag: string | undefined, flagName: string, envName: string) => {
    if (flag !== undefined) return validateUrl(flag, flagName);
    if (env[envName]) return validateUrl(env[envName]!, envName);
    return undefined;
  };
  const urls: ServiceUrls = {};
  const apiUrl = pick(flags.apiUrl, '--api-url', 'MAILCLEAN_API_URL');
  const cleanUrl = pick(flags.cleanUrl, '--clean-url', 'MAILCLEAN_CLEAN_URL');
  if (apiUrl) urls['api-url'] = apiUrl;
  if (cleanUrl) urls['clean-url'] = cleanUrl;
  return urls;
}
