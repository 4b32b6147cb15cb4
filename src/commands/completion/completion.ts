import type { Factory } from '../../factory.js';
import type { Shell } from '../flags/completion.js';
import { fish } from './fish.js';
import { bash, zsh } from './sh.js';
import { describe } from './spec.js';

// The scripts are generated from the command tree main.ts parses, so a new command, flag or choice
// completes without anyone restating it here.

const SHELLS: Record<Shell, typeof bash> = { bash, zsh, fish };

export async function completion({ shell }: { shell: Shell }, f: Factory): Promise<number> {
  const program = await f.commandTree();
  f.io.data(SHELLS[shell](describe(program, '', [])));
  return 0;
}
