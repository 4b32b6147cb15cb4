import { randomBytes } from 'node:crypto';
import type { PlatformClient, SignedIn } from '../api/platform.js';

/**
 * Registers an account on the built-in sandbox for a user who has none (account commands work with nothing
 * configured). The password is random and never shown: the token is all the user needs there.
 */
export async function createSandboxAccount(
  client: PlatformClient,
  email = `sandbox-${randomBytes(4).toString('hex')}@example.com`,
): Promise<SignedIn & { email: string }> {
  const signed = await client.register({
    name: 'Sandbox User',
    email,
    password: randomBytes(24).toString('base64url'),
    source: 'cli',
    source_path: 'mailclean/auto',
  });
  return { ...signed, email };
}
