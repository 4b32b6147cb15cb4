// docs/json.md against what mailclean prints: every field a --json output (or a clean's summary, dry run or rows)
// carries is documented in its section, and the field lists --json offers come from the types (src/fields.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ME_FIELDS, ROLE_FIELDS } from '../../src/account/views.js';
import {
  ALLOWANCE_FIELDS,
  AUTH_STATUS_FIELDS,
  CACHE_STATS_FIELDS,
  PERMISSION_FIELDS,
  VERIFY_FIELDS,
} from '../../src/commands/common/json-fields.js';
import { RUN_FIELDS } from '../../src/commands/runs/run-json.js';
import { useHome } from '../helpers/cli.js';

const JSON_MD = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'json.md'), 'utf8');

/** The text of the section whose heading starts with `heading`, up to the next heading of its level or above. */
function section(heading: string): string {
  const start = JSON_MD.indexOf(`\n${heading}`);
  expect(start, `docs/json.md has a section "${heading}"`).toBeGreaterThanOrEqual(0);
  const level = heading.match(/^#+/)![0];
  const rest = JSON_MD.slice(start + heading.length + 1);
  const end = rest.search(new RegExp(`\\n#{1,${level.length}} `));
  return end < 0 ? rest : rest.slice(0, end);
}

/** Fields of `names` the section does not name (as `field`, "field" or a bare word in a {…} list). */
function undocumented(text: string, names: readonly string[]): string[] {
  return names.filter((name) => !new RegExp(`[\`"{,(\\s]${name}[\`":,})\\s]`).test(text));
}

describe('docs/json.md', () => {
  it('documents every field the --json lists offer', () => {
    expect(undocumented(section('## `me`'), ME_FIELDS)).toEqual([]);
    expect(undocumented(section('## `roles`'), [...ROLE_FIELDS, ...PERMISSION_FIELDS])).toEqual([]);
    expect(undocumented(section('## `auth status`'), AUTH_STATUS_FIELDS)).toEqual([]);
    expect(undocumented(section('## `cache stats`'), CACHE_STATS_FIELDS)).toEqual([]);
    expect(undocumented(section('## `verify`'), VERIFY_FIELDS)).toEqual([]);
    expect(undocumented(section('## `allowance`'), ALLOWANCE_FIELDS)).toEqual([]);
    expect(undocumented(section('## `runs`'), RUN_FIELDS)).toEqual([]);
  });

  const home = useHome();

  it('documents every field of a clean: the dry run, the summary and the rows', async () => {
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, 'email,name\nada@example.com,Ada\n"Bob <bob@example.org>",Bob\n');
    const dry = await home().run(['clean', input, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(undocumented(section('## `clean --dry-run --json`'), Object.keys(JSON.parse(dry.stdout)))).toEqual([]);

    const summaryFile = join(home().dir, 'summary.json');
    const run = await home().run([
      'clean',
      input,
      '--local',
      '--dns-server',
      '127.0.0.1:9',
      '--format',
      'json',
      '--summary-json',
      summaryFile,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as Record<string, unknown>;
    // The table names some fields in groups ("`startedAt`, `finishedAt`, `durationMs`").
    expect(undocumented(section('## `clean --summary-json FILE`'), Object.keys(summary))).toEqual([]);
    const rows = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    const ours = Object.keys(rows[0]!).filter((key) => key.startsWith('email_'));
    expect(ours).toContain('email_checked');
    expect(undocumented(section('## `clean --format json|ndjson`'), ours)).toEqual([]);
    // The rule for keys (docs/json.md): mailclean's objects camelCase, all the way down; a list's columns snake_case.
    expect(notCamel([JSON.parse(dry.stdout), summary])).toEqual([]);
    expect(ours.filter((key) => !SNAKE.test(key))).toEqual([]);
  });

  it("holds every field list to one rule: mailclean's own camelCase, the platform's records snake_case", () => {
    const own = [ALLOWANCE_FIELDS, AUTH_STATUS_FIELDS, CACHE_STATS_FIELDS, VERIFY_FIELDS, RUN_FIELDS].flat();
    expect(own.filter((key) => !CAMEL.test(key))).toEqual([]);
    const platform = [ME_FIELDS, ROLE_FIELDS, PERMISSION_FIELDS].flat();
    expect(platform.filter((key) => !SNAKE.test(key))).toEqual([]);
    expect(JSON_MD).toMatch(/One rule for the keys/);
  });
});

const CAMEL = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*$/;
const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/** The keys of `values`, nested objects and lists included, that are not camelCase (statuses' names are data). */
function notCamel(values: unknown[], path = ''): string[] {
  const bad: string[] = [];
  for (const value of values) {
    if (Array.isArray(value)) bad.push(...notCamel(value, path));
    else if (value && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) {
        if (DATA_KEYED.has(path)) continue;
        if (!CAMEL.test(key)) bad.push(`${path}${key}`);
        bad.push(...notCamel([inner], `${path}${key}.`));
      }
  }
  return bad;
}

/** Objects whose keys are data (a status, a reason, a domain), not names. */
const DATA_KEYED = new Set(['statuses.', 'reasons.', 'byReason.', 'topDomains.', 'precheck.byReason.']);
