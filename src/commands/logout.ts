import type { Command } from 'commander';
import type { Runner } from './index.js';
import type { Ctx } from '../context.js';
import { serviceOption, type ServiceChoice } from './inputs.js';

export function define(cmd: Command, run: Runner): void {
  cmd
    .addOption(serviceOption('all'))
    .addHelpText('after', '\nForgets the stored tokens of this profile. Tokens given by MAILCLEAN_TOKEN or MAILCLEAN_CLEAN_TOKEN still apply.')
    .action(run(logout));
}

async function logout(ctx: Ctx, opts: Record<string, unknown>): Promise<number> {
  const service = opts.service as ServiceChoice;
  const creds = await ctx.credentials();
  const forgotten: string[] = [];
  if (service !== 'clean' && (creds.token || creds['cdp-token'])) {
    await ctx.saveCredentials({ token: undefined, 'cdp-token': undefined, 'user-id': undefined });
    forgotten.push('the platform');
  }
  if (service !== 'platform' && creds['clean-token']) {
    await ctx.saveCredentials({ 'clean-token': undefined });
    forgotten.push('the cleaning service');
  }
  ctx.note(forgotten.length ? `Logged out of ${forgotten.join(' and ')} (profile "${ctx.profileName}").` : `No stored tokens to forget in profile "${ctx.profileName}".`);
  if (service !== 'clean' && ctx.env.MAILCLEAN_TOKEN) ctx.warn('MAILCLEAN_TOKEN is set in the environment and still applies.');
  if (service !== 'platform' && ctx.env.MAILCLEAN_CLEAN_TOKEN) ctx.warn('MAILCLEAN_CLEAN_TOKEN is set in the environment and still applies.');
  return 0;
}
