// Every status and reason mailclean can write is explained, in `clean --help` and in docs/json.md.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REASON_MEANINGS, STATUS_MEANINGS } from '../../src/clean/verdict.js';
import { ENGINE_REASONS } from '../../src/verify/engine.js';
import { TestHome } from '../helpers/cli.js';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('statuses and reasons are documented', () => {
  let home: TestHome;
  let help: string;
  beforeAll(async () => {
    home = new TestHome();
    const res = await home.run(['clean', '--help']);
    expect(res.code).toBe(0);
    help = res.stdout;
  });
  afterAll(() => home.cleanup());

  it('clean --help explains every reason the engine can give', () => {
    const reasons = ENGINE_REASONS.filter((r) => r !== '');
    expect(reasons.length).toBeGreaterThan(10);
    const block = help.slice(help.indexOf('Reasons (email_reason'), help.indexOf('Exit codes:'));
    for (const reason of reasons) expect(block, reason).toMatch(new RegExp(`^  ${reason} +\\S`, 'm'));
  });

  it('clean --help and docs/json.md list every status and reason with the same meaning', () => {
    const doc = readFileSync(new URL('../../docs/json.md', import.meta.url), 'utf8');
    for (const [name, meaning] of [...Object.entries(STATUS_MEANINGS), ...Object.entries(REASON_MEANINGS)]) {
      expect(help, name).toMatch(new RegExp(`^  ${name} +${escape(meaning)}$`, 'm'));
      expect(doc, name).toContain(`| \`${name}\` | ${meaning} |`);
    }
    for (const reason of ['blank', 'syntax', 'rejected_by_service', 'no_result', 'invalid_domain', 'rejected']) {
      expect(Object.keys(REASON_MEANINGS), reason).toContain(reason);
    }
  });
});
