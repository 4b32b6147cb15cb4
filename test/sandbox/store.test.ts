import { readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle, SandboxOptions } from '../../src/sandbox/server.js';
import { useSandboxes } from '../helpers/sandbox.js';
import { call, PASSWORD, registerUser, uniqueEmail } from './helpers.js';

const sandboxes = useSandboxes();
let dataDir: string;
beforeEach(() => {
  // Two levels that do not exist yet: the sandbox creates the whole path.
  dataDir = join(sandboxes.dataDir(), 'nested');
});

function start(opts: SandboxOptions = {}): Promise<SandboxHandle> {
  return sandboxes.start({ dataDir, ...opts });
}

const stop = sandboxes.stop;

describe('state in a data directory', () => {
  it('survives a restart, in a 0600 file inside a 0700 directory, without secrets in clear', async () => {
    const first = await start();
    const { token, email, userId } = await registerUser(first.url);
    const signup = await call(first.url, 'POST', '/api/v1/auth/signup', {
      body: { email: uniqueEmail(), password: PASSWORD },
    });
    await stop(first);

    const file = join(dataDir, 'sandbox.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    expect(await readdir(dataDir)).toEqual(['sandbox.json']); // no temp files left behind
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(token.split('.')[1]);
    expect(text).not.toContain((signup.json.result.token as string).split('.')[1]);
    expect(JSON.parse(text).version).toBe(1);

    const second = await start();
    const me = await call(second.url, 'GET', '/api/me', { token });
    expect(me.status).toBe(200);
    expect(me.json.response.me.data.id).toBe(userId);
    expect((await call(second.url, 'POST', '/api/login', { body: { email, password: PASSWORD } })).status).toBe(200);
  });

  it('keeps nothing between restarts without a data directory', async () => {
    const first = await sandboxes.start();
    const { email } = await registerUser(first.url);
    await stop(first);
    const second = await sandboxes.start();
    expect((await call(second.url, 'POST', '/api/login', { body: { email, password: PASSWORD } })).status).toBe(401);
  });

  it('sees what another process sharing the file wrote, without a restart', async () => {
    const a = await start();
    const b = await start();
    const { email, token } = await registerUser(a.url);
    expect((await call(b.url, 'POST', '/api/login', { body: { email, password: PASSWORD } })).status).toBe(200);
    expect((await call(b.url, 'GET', '/api/me', { token })).status).toBe(200);
    // and back: an update through b shows through a
    await call(b.url, 'POST', '/api/me', {
      token,
      body: { first_name: 'Via', last_name: 'B', phone: '1', country_code: 'US' },
    });
    const me = await call(a.url, 'GET', '/api/me', { token });
    expect(me.json.response.me.data.first_name).toBe('Via');
  });

  it('switches the current brand with current_buuid and remembers it', async () => {
    const h = await start();
    const a = await registerUser(h.url);
    const b = await registerUser(h.url);
    // The sandbox has no route that adds a second brand, so give a's user b's brand by editing
    // the file the way another writer would: whole-file replace.
    const file = join(dataDir, 'sandbox.json');
    const state = JSON.parse(await readFile(file, 'utf8'));
    state.platformUsers[a.userId].brand_ids.push(b.brandId);
    state.platformUsers[a.userId].role_by_brand[b.brandId] = 'manager';
    await writeFile(`${file}.edit`, JSON.stringify(state), { mode: 0o600 });
    await rename(`${file}.edit`, file);

    const switched = await call(h.url, 'GET', `/api/me?current_buuid=${b.brandId}`, { token: a.token });
    expect(switched.status).toBe(200);
    expect(switched.json.response.currentBrand.data.id).toBe(b.brandId);
    expect(switched.json.response.me.data.role.data.name).toBe('manager');
    expect(switched.json.response.me.data.brands.data).toHaveLength(2);

    const later = await call(h.url, 'GET', '/api/me', { token: a.token });
    expect(later.json.response.currentBrand.data.id).toBe(b.brandId);
    // The roles route covers every brand of the user, four roles each.
    const roles = await call(h.url, 'GET', `/api/user/${a.userId}/roles`, { token: a.token });
    expect(roles.json.response.roles.data.map((r: { brand_id: string }) => r.brand_id)).toEqual([
      ...Array(4).fill(a.brandId),
      ...Array(4).fill(b.brandId),
    ]);
    const onDisk = JSON.parse(await readFile(file, 'utf8'));
    expect(onDisk.platformUsers[a.userId].current_brand_id).toBe(b.brandId);
  });

  it('refuses to start on a state file it cannot read, naming the file', async () => {
    const h = await start();
    await registerUser(h.url);
    await stop(h);
    await writeFile(join(dataDir, 'sandbox.json'), '{"version":1,', { mode: 0o600 });
    await expect(start()).rejects.toThrow(/sandbox\.json.*move it aside/);
  });
});
