jest.setTimeout(300_000);

import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { registerAccount, bearer, type TestAccount } from '../helpers/accounts';
import { LOGIN_THROTTLE } from '../../../src/server/auth/loginThrottle';
import { ACCOUNT_BACKOFF } from '../../../src/server/auth/accountBackoff';
import { ConfigError, loadConfig } from '../../../src/server/config';
import { parseTrustedProxies } from '../../../src/server/http/trustedProxies';

// Issue 31 item 4, with real HTTP requests through a listening Toolscope: behind a reverse proxy
// every client arrives from the proxy's address, and X-Forwarded-For is whatever the client wrote
// plus what the proxy appended. Only the operator's hops are believed, and the per-account
// protection slows an attacker with many addresses without locking the owner out.
interface Answer {
  status: number;
  retryAfter: number;
  setCookie: string | null;
  body: { accessToken?: string; message?: string };
}

async function listening(t: TestApp): Promise<string> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return `http://127.0.0.1:${address.port}`;
}

function client(base: string) {
  return async (email: string, password: string, headers: Record<string, string> = {}): Promise<Answer> => {
    const res = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email, password }),
    });
    return {
      status: res.status,
      retryAfter: Number(res.headers.get('retry-after') ?? 0),
      setCookie: res.headers.get('set-cookie'),
      body: (await res.json()) as Answer['body'],
    };
  };
}

/** The cookie a browser would send back from a Set-Cookie answer. */
const cookieOf = (answer: Answer) => (answer.setCookie ?? '').split(';')[0];

async function signInAddress(t: TestApp, accessToken: string): Promise<string | null> {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/users/me/sign-ins', headers: bearer(accessToken) });
  const signIns = res.json<{ signIns: { current: boolean; ip: string | null }[] }>().signIns;
  return signIns.find((s) => s.current)?.ip ?? null;
}

describe(`sign-in throttling behind a reverse proxy (${engineName})`, () => {
  describe('without TOOLSCOPE_TRUST_PROXY (every client shares the balancer address)', () => {
    let t: TestApp;
    let base: string;
    let owner: TestAccount;
    beforeAll(async () => {
      t = await buildTestApp();
      base = await listening(t);
      owner = await registerAccount(t.app, { email: 'owner-a@example.com', password: 'the owners password' });
    });
    afterAll(() => t.close());

    it('ignores X-Forwarded-For: rotating it does not escape the lock-out', async () => {
      const login = client(base);
      for (let i = 1; i < LOGIN_THROTTLE.maxFailures; i++) {
        const answer = await login(owner.email, `guess ${i}`, { 'x-forwarded-for': `203.0.113.${i}` });
        expect(answer.status).toBe(401);
      }
      expect((await login(owner.email, 'last guess', { 'x-forwarded-for': '203.0.113.99' })).status).toBe(429);
      const rotated = await login(owner.email, owner.password, { 'x-forwarded-for': '198.51.100.1' });
      expect(rotated.status).toBe(429);
      expect(rotated.retryAfter).toBeGreaterThan(0);
    });

    it('lets the owner in from a known device although their shared address is locked out', async () => {
      const login = client(base);
      // The owner's browser signed in before the attack (register set its device cookie too).
      const owner2 = await registerAccount(t.app, { email: 'owner-b@example.com', password: 'the owners password' });
      const before = await login(owner2.email, owner2.password);
      expect(before.status).toBe(200);
      const device = cookieOf(before);
      expect(device).toMatch(/^toolscope_device_[\w-]+=[\w-]+\.[\w-]+$/);
      for (let i = 1; i <= LOGIN_THROTTLE.maxFailures; i++) await login(owner2.email, `guess ${i}`);
      expect((await login(owner2.email, owner2.password)).status).toBe(429);
      expect((await login(owner2.email, owner2.password, { cookie: device })).status).toBe(200);
      // A forged or foreign device cookie is no device.
      const forged = device.replace(/\.[\w-]+$/, '.AAAA');
      expect((await login(owner2.email, owner2.password, { cookie: forged })).status).toBe(429);
      expect((await login(owner.email, owner.password, { cookie: device })).status).toBe(429);
    });
  });

  describe('with TOOLSCOPE_TRUST_PROXY=1 (one proxy appends the real address)', () => {
    let t: TestApp;
    let base: string;
    beforeAll(async () => {
      t = await buildTestApp({ trustProxy: parseTrustedProxies('1') });
      base = await listening(t);
    });
    afterAll(() => t.close());

    it('takes the right-most entry: a forged left part neither rotates the client nor names it', async () => {
      const login = client(base);
      const owner = await registerAccount(t.app, { email: 'owner-c@example.com', password: 'the owners password' });
      // The attacker writes a new address each time; the proxy appends the attacker's real one.
      for (let i = 1; i < LOGIN_THROTTLE.maxFailures; i++) {
        const forged = { 'x-forwarded-for': `10.0.0.${i}, 203.0.113.7` };
        expect((await login(owner.email, `guess ${i}`, forged)).status).toBe(401);
      }
      const locking = await login(owner.email, 'last guess', { 'x-forwarded-for': '10.0.0.77, 203.0.113.7' });
      expect(locking.status).toBe(429);
      expect(locking.retryAfter).toBe(LOGIN_THROTTLE.lockSeconds);
      // The owner, from another address, with no device cookie: in.
      const ownerIn = await login(owner.email, owner.password, { 'x-forwarded-for': '198.51.100.20' });
      expect(ownerIn.status).toBe(200);
      expect(await signInAddress(t, ownerIn.body.accessToken!)).toBe('198.51.100.20');
      const forgedIn = await login(owner.email, owner.password, { 'x-forwarded-for': '6.6.6.6, 198.51.100.21' });
      expect(await signInAddress(t, forgedIn.body.accessToken!)).toBe('198.51.100.21');
    });

    it('slows many addresses guessing one account, and the owner passes from a known device', async () => {
      const login = client(base);
      const owner = await registerAccount(t.app, { email: 'owner-d@example.com', password: 'the owners password' });
      const known = await login(owner.email, owner.password, { 'x-forwarded-for': '198.51.100.30' });
      const device = cookieOf(known);
      // 40 attempts from 40 addresses (a botnet, each under the per-client lock-out).
      const answers: Answer[] = [];
      for (let i = 1; i <= 40; i++)
        answers.push(await login(owner.email, `guess ${i}`, { 'x-forwarded-for': `203.0.113.${100 + i}` }));
      const statuses = answers.map((a) => a.status);
      expect(statuses.slice(0, ACCOUNT_BACKOFF.freeFailures - 1).every((s) => s === 401)).toBe(true);
      // Past the free failures the account is held: refused before the password is even checked.
      const held = statuses.filter((s) => s === 429).length;
      expect(held).toBeGreaterThanOrEqual(40 - ACCOUNT_BACKOFF.freeFailures - 1);
      expect(answers.at(-1)!.retryAfter).toBeGreaterThan(0);
      // The right password from a new device waits like the attacker...
      const newDevice = await login(owner.email, owner.password, { 'x-forwarded-for': '198.51.100.31' });
      expect(newDevice.status).toBe(429);
      expect(newDevice.retryAfter).toBeLessThanOrEqual(ACCOUNT_BACKOFF.maxDelaySeconds);
      // ...the owner's known device is not held: the right password signs in, a wrong one is a 401.
      const headers = { 'x-forwarded-for': '198.51.100.32', cookie: device };
      expect((await login(owner.email, 'a typo', headers)).status).toBe(401);
      expect((await login(owner.email, owner.password, headers)).status).toBe(200);
      // The owners are told, once, in the audit log of the account's workspaces.
      const events = await t.database.db.query<{ details: { scope?: string } }>(
        `select details from audit_events where workspace_id = $1 and action = 'auth.locked_out'`,
        [owner.workspaceId],
      );
      expect(events.filter((e) => e.details.scope === 'account')).toHaveLength(1);
    });
  });

  it('with a list of proxy addresses, peels only those hops', async () => {
    const t = await buildTestApp({ trustProxy: parseTrustedProxies('127.0.0.1, 10.0.0.0/8') });
    try {
      const base = await listening(t);
      const login = client(base);
      const owner = await registerAccount(t.app, { email: 'owner-e@example.com', password: 'the owners password' });
      const chain = { 'x-forwarded-for': '6.6.6.6, 192.0.2.44, 10.1.2.3' };
      const answer = await login(owner.email, owner.password, chain);
      expect(await signInAddress(t, answer.body.accessToken!)).toBe('192.0.2.44');
    } finally {
      await t.close();
    }
  });

  it('reads TOOLSCOPE_TRUST_PROXY as none, a hop count or addresses, and refuses anything else', () => {
    expect(loadConfig({}).trustProxy).toEqual({ kind: 'none' });
    expect(loadConfig({ TOOLSCOPE_TRUST_PROXY: 'true' }).trustProxy).toEqual({ kind: 'hops', hops: 1 });
    expect(loadConfig({ TOOLSCOPE_TRUST_PROXY: '2' }).trustProxy).toEqual({ kind: 'hops', hops: 2 });
    expect(loadConfig({ TOOLSCOPE_TRUST_PROXY: 'loopback, fd00::/8' }).trustProxy).toEqual({
      kind: 'addresses',
      list: ['loopback', 'fd00::/8'],
    });
    expect(() => loadConfig({ TOOLSCOPE_TRUST_PROXY: 'proxy.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ TOOLSCOPE_TRUST_PROXY: '10.0.0.0/33' })).toThrow(ConfigError);
  });
});
