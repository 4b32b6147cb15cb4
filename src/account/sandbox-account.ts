import { randomBytes } from 'node:crypto';
import type { PlatformClient, SignedIn } from '../api/platform.js';

/** Registers a built-in sandbox account for a user who has none; its random password is never shown or needed. */
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
