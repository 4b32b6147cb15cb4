// The HTML report in a real headless Chromium: it renders without console errors or any network request, its
// charts say what the summary JSON says, and a hostile address from the input is shown as text.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { TestHome } from '../helpers/cli.js';
import { registered, TEST_PASSWORD_COST } from '../helpers/sandbox.js';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
// .ci/run installs Chromium and sets this: there, a missing browser is a failure, not a skip.
const required = process.env.MAILCLEAN_REQUIRE_CHROMIUM === '1';
if (!present)
  console.log(
    `test/e2e/report.test.ts: skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`,
  );

const HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">@example.com';

describe('the HTML report in Chromium', () => {
  let sandbox: SandboxHandle;
  let home: TestHome;
  let page: string;
  let summary: Record<string, any>;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, plan: 'unlimited', passwordCost: TEST_PASSWORD_COST });
    home = new TestHome();
    await registered(home, sandbox);
    const input = join(home.dir, 'list.csv');
    const rows = [
      'email,name',
      'ann@example.com,A',
      'bob@example.org,B',
      'x@mailinator.com,D',
      ',blank',
      'nope,bad',
      `"${HOSTILE.replace(/"/g, '""')}",hostile`,
    ];
    for (let i = 0; i < 30; i++) rows.push(`p${i}@domain${i % 25}.com,P`);
    writeFileSync(input, `${rows.join('\n')}\n`);
    page = join(home.dir, 'report.html');
    const res = await home.run([
      'clean',
      input,
      '-o',
      join(home.dir, 'out.csv'),
      '--report',
      page,
      '--summary-json',
      join(home.dir, 's.json'),
    ]);
    expect(res.code, res.stderr).toBe(0);
    summary = JSON.parse(readFileSync(join(home.dir, 's.json'), 'utf8'));
  });
  afterAll(async () => {
    await sandbox.close();
    home.cleanup();
  });

  it('renders with no console error and no request, shows the summary numbers, and the hostile address as text', async (ctx) => {
    if (!present) {
      if (required) throw new Error(`MAILCLEAN_REQUIRE_CHROMIUM=1 but ${CHROMIUM} is missing`);
      ctx.skip();
    }
    const { chromium } = await import('playwright-core');
    const profile = mkdtempSync(join(tmpdir(), 'mailclean-chromium-'));
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const url = pathToFileURL(page).href;
      const problems: string[] = [];
      const requests: string[] = [];
      browser.on('request', (r) => requests.push(r.url()));
      const tab = await browser.newPage();
      tab.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      tab.on('pageerror', (e) => problems.push(e.message));
      await tab.goto(url);
      await tab.waitForLoadState('load');

      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);

      const bars = (chart: string) =>
        tab.$$eval(`#${chart} .bar`, (els) =>
          Object.fromEntries(els.map((e) => [e.getAttribute('data-name'), Number(e.getAttribute('data-rows'))])),
        );
      expect(await bars('statuses')).toEqual(summary.statuses);
      expect(await bars('reasons')).toEqual(summary.reasons);
      const domains = await tab.$$eval('tr.domain', (els) =>
        els.map((e) => ({ domain: e.getAttribute('data-domain'), rows: Number(e.getAttribute('data-rows')) })),
      );
      expect(domains).toEqual(
        summary.topDomains.map((d: { domain: string; rows: number }) => ({ domain: d.domain, rows: d.rows })),
      );
      expect(domains).toHaveLength(20);
      expect(Number(await tab.getAttribute('#disposable', 'data-rows'))).toBe(summary.disposable);
      expect(Number(await tab.getAttribute('#unchecked', 'data-rows'))).toBe(summary.unchecked.rows);

      const examples = await tab.$$eval('tr.example code', (els) => els.map((e) => e.textContent));
      expect(examples).toContain(HOSTILE);
      expect(await tab.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await tab.$$eval('script, img', (els) => els.length)).toBe(0);
    } finally {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
