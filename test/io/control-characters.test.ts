// Control characters from a service's answer, a file and an argument reach a terminal escaped (never a raw ESC, BEL
// or OSC that clears the screen or sets its title); data sent to a pipe stays byte for byte. The CLI in-process,
// against a raw HTTP server on loopback whose answers carry `ESC[2J ESC]0;owned BEL`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forTerminal } from '../../src/io/streams.js';
import { COLOR } from '../../src/io/style.js';
import { useHome } from '../helpers/cli.js';
import { useServers } from '../helpers/http-server.js';

const PAYLOAD = '\u001b[2J\u001b]0;owned\u0007';
const SHOWN = '\\x1b[2J\\x1b]0;owned\\x07';
/** Any control character a terminal acts on (tab and newline aside). */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** The same, but the colour codes mailclean makes itself. */
const RAW_BUT_OUR_COLOURS = (text: string) => text.replace(/\u001b\[(1|2|22|31|32|33|39)m/g, '');

describe('control characters on a terminal', () => {
  const home = useHome();
  const serve = useServers();

  it('forTerminal escapes every control character but keeps the colours made by style', () => {
    const line = `${COLOR.red('error:')} ${PAYLOAD}\r\u0085tab\there\r\n`;
    expect(forTerminal(line)).toBe(`\u001b[31merror:\u001b[39m ${SHOWN}\\x0d\\x85tab\there\r\n`);
    // A colour code in the text itself is escaped like any other: only style's marks become codes.
    expect(forTerminal('\u001b[31mred')).toBe('\\x1b[31mred');
  });

  it("a service's answer quoted in an error is escaped, on a terminal or not", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`${PAYLOAD}hello`);
    });
    for (const tty of [true, false]) {
      const res = await home().run(['--api-url', server.url, 'me'], { env: { MAILCLEAN_TOKEN: 'a-token-0123' }, tty });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`with a body that is not JSON ("${SHOWN}hello")`);
      expect(res.stderr).not.toMatch(RAW);
    }
  });

  it('an argument in a table: escaped on a terminal (colours still on, columns aligned) and in a pipe; JSON keeps it', async () => {
    const address = 'esc\u001b[31mred\u001b[0m@example.org';
    const tty = await home().run(['verify', '--local', address, 'ann@example.com'], {
      tty: true,
      env: { FORCE_COLOR: '1' },
    });
    expect(tty.stdout).toContain('esc\\x1b[31mred\\x1b[0m@example.org');
    expect(tty.stdout).toContain('\u001b[31minvalid\u001b[39m');
    expect(RAW_BUT_OUR_COLOURS(tty.stdout)).not.toMatch(RAW);
    expect(RAW_BUT_OUR_COLOURS(tty.stderr)).not.toMatch(RAW);
    // Aligned as seen: each row's status starts under STATUS, the colour codes taking no room.
    const seen = tty.stdout
      .replace(/\u001b\[\d+m/g, '')
      .split('\n')
      .filter(Boolean);
    const at = seen[0]!.indexOf('STATUS');
    expect(at).toBeGreaterThan(0);
    for (const line of seen.slice(1)) expect(line.slice(at)).toMatch(/^(invalid|unknown|valid|risky) /);

    // A pager or a CI log acts on them too: a table in a pipe is escaped as well, without colour.
    const piped = await home().run(['verify', '--local', address]);
    expect(piped.stdout).toContain('esc\\x1b[31mred\\x1b[0m@example.org');
    expect(piped.stdout).not.toMatch(RAW);
    // JSON escapes it its own way, whatever stdout is.
    const json = await home().run(['verify', '--local', address, '--json', 'address'], { tty: true });
    expect(JSON.parse(json.stdout)).toEqual([{ address }]);
  });

  it("a file's name, in the run's lines on stderr, is escaped", async () => {
    const input = join(home().dir, `list${PAYLOAD}.csv`);
    writeFileSync(input, `email,name\nann@example.com,Ann\n`);
    const res = await home().run(['clean', input, '--local', '--column', 'email'], { tty: true });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`list${SHOWN}.csv`);
    expect(RAW_BUT_OUR_COLOURS(res.stderr.replace(/\r|\u001b\[[0-9;?]*[A-Za-z]/g, ''))).not.toMatch(RAW);
  });

  it("clean's rows: escaped on a terminal's stdout, byte for byte to a pipe", async () => {
    const input = join(home().dir, 'cells.csv');
    // CRLF rows, as Excel writes them: the line ends stay as they are.
    const cells = `email,name\r\nann@example.com,Ann${PAYLOAD}\r\n`;
    writeFileSync(input, cells);
    const tty = await home().run(['clean', input, '--local'], { tty: true });
    expect(tty.code, tty.stderr).toBe(0);
    expect(tty.stdout).toContain(`ann@example.com,Ann${SHOWN},`);
    expect(tty.stdout).toMatch(/,email_provider\r\n/);
    expect(tty.stdout.replace(/\r\n/g, '\n')).not.toMatch(RAW);
    const piped = await home().run(['clean', input, '--local']);
    expect(piped.stdout).toContain(`ann@example.com,Ann${PAYLOAD},`);
  });
});
