import { ME_FIELDS, meView } from '../account/views.js';
import { ApiError, AuthError, UsageError } from '../errors.js';
import type { Factory } from '../factory.js';
import { namingFlags, readInternalToken, SIGN_UP_FLAGS, signUpInput } from './common/inputs.js';
import type { OemRegisterFlags } from './flags/oem-register.js';

const FLAGS = {
  ...SIGN_UP_FLAGS,
  internal_access_32543hbhjb3243h4: 'the internal token (MAILCLEAN_INTERNAL_TOKEN or --internal-token-file)',
};

export async function oemRegister(o: OemRegisterFlags, f: Factory): Promise<number> {
  // Every flag is checked before the first question.
  const { token, source } = await readInternalToken(f, o.internalTokenFile);
  if (!token)
    throw new UsageError(
      'an internal access token is required',
      'set MAILCLEAN_INTERNAL_TOKEN or pass --internal-token-file FILE',
    );
  const client = await f.platform();
  const { name, email, password } = await signUpInput(f, o);
  const answer = await client.oemRegister({ name, email, password, internalToken: token }).catch((error: unknown) => {
    // No bearer token is sent, so a refusal can only be of the internal token; `login` would not help.
    if (error instanceof AuthError || (error instanceof ApiError && error.status === 403)) {
      throw new AuthError(
        `the platform refused the internal access token from ${source}`,
        'fix MAILCLEAN_INTERNAL_TOKEN or --internal-token-file FILE',
      );
    }
    return namingFlags(FLAGS)(error);
  });
  const view = meView(answer);
  f.io.note(
    `${f.io.style.green('✓')} Registered ${view.email ?? email} through the OEM route${view.id ? ` (user ${view.id})` : ''}`,
  );
  if (o.json !== undefined) f.io.json(view, o.json, ME_FIELDS);
  return 0;
}
