import { Writable } from 'node:stream';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName, openTestDatabase, type TestDatabase } from '../helpers/testDatabase';
import { buildApp } from '../../../src/server/app';
import { generateSecret, loadConfig } from '../../../src/server/config';
import { signedInAccessToken } from '../helpers/signedInToken';
import { createMemberWithWorkspace, type Member } from '../monitor/support/workspaceFixture';
import { getJson, openSse } from '../monitor/support/sseReader';

// PGlite start-up and a busy shared machine: the project's testTimeout is not applied per project.
jest.setTimeout(60_000);

describe(`live stream over real HTTP (${engineName})`, () => {
  let t: TestApp;
  let base: string;
  let ada: Member;
  let bob: Member;
  const streamUrl = (workspaceId: string, token?: string) =>
    `${base}/api/v1/workspaces/${workspaceId}/platform/sse${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`;

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    ada = await createMemberWithWorkspace(t.database.db, t.config.secret, 'Ada');
    bob = await createMemberWithWorkspace(t.database.db, t.config.secret, 'Bob');
  });
  afterAll(() => t.close());

  it('sends a heartbeat on connect, then every bus message of the workspace as data: <json>', async () => {
    const sse = await openSse(streamUrl(ada.workspaceId, ada.token));
    try {
      expect(sse.status).toBe(200);
      expect(sse.headers['content-type']).toMatch(/^text\/event-stream/);
      await sse.waitFor((m) => m.type === 'heartbeat');
      t.app.bus.publish(bob.workspaceId, { type: 'tool_call', data: { toolName: 'not-for-ada' } });
      t.app.bus.publish(ada.workspaceId, { type: 'tool_call', data: { toolName: 'add', durationMs: 3 } });
      const call = await sse.waitFor((m) => m.type === 'tool_call');
      expect(call.data).toEqual({ toolName: 'add', durationMs: 3 });
      expect(typeof (call as { at?: unknown }).at).toBe('string');
      expect(sse.messages.some((m) => (m.data as { toolName?: string }).toolName === 'not-for-ada')).toBe(false);
    } finally {
      sse.close();
    }
  });

  it("delivers a user's notification only to that user's streams, without the routing field", async () => {
    const carol = await createMemberWithWorkspace(t.database.db, t.config.secret, 'Carol');
    await t.database.db.query(`insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'member')`, [
      ada.workspaceId,
      carol.userId,
    ]);
    const adaStream = await openSse(streamUrl(ada.workspaceId, ada.token));
    const carolStream = await openSse(
      streamUrl(ada.workspaceId, await signedInAccessToken(t.app.db, carol.userId, t.config.secret)),
    );
    try {
      await adaStream.waitFor((m) => m.type === 'heartbeat');
      await carolStream.waitFor((m) => m.type === 'heartbeat');
      t.app.bus.publish(ada.workspaceId, { type: 'notification', data: { title: 'for carol' }, userId: carol.userId });
      t.app.bus.publish(ada.workspaceId, { type: 'notification', data: { title: 'for ada' }, userId: ada.userId });
      const adas = await adaStream.waitFor((m) => m.type === 'notification');
      const carols = await carolStream.waitFor((m) => m.type === 'notification');
      expect(adas.data).toEqual({ title: 'for ada' });
      expect(carols.data).toEqual({ title: 'for carol' });
      expect(adas).not.toHaveProperty('userId');
      expect(adaStream.messages.filter((m) => m.type === 'notification')).toHaveLength(1);
    } finally {
      adaStream.close();
      carolStream.close();
    }
  });

  it('accepts the token as a bearer header too', async () => {
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get(streamUrl(ada.workspaceId), { headers: { authorization: `Bearer ${ada.token}` } }, resolve)
        .on('error', reject);
    });
    expect(response.statusCode).toBe(200);
    response.destroy();
  });

  it("refuses another workspace's stream (404) and a missing or invalid token (401)", async () => {
    expect(await getJson(streamUrl(bob.workspaceId, ada.token))).toEqual({
      status: 404,
      body: { message: 'Workspace not found', code: 'not_found' },
    });
    expect(await getJson(streamUrl(ada.workspaceId))).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    expect(await getJson(streamUrl(ada.workspaceId, `${ada.token}x`))).toMatchObject({
      status: 401,
      body: { code: 'unauthorized' },
    });
    expect(t.app.bus.subscriberCount(bob.workspaceId)).toBe(0);
  });

  it('drops a client that stops reading instead of buffering for it without bound', async () => {
    const dave = await createMemberWithWorkspace(t.database.db, t.config.secret, 'Dave');
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(streamUrl(dave.workspaceId, dave.token), resolve).on('error', reject);
    });
    response.pause();
    expect(t.app.bus.subscriberCount(dave.workspaceId)).toBe(1);
    const big = 'x'.repeat(64 * 1024);
    // Far more than the socket buffers and the 1 MiB allowance can hold; publish never waits.
    for (let i = 0; i < 400 && t.app.bus.subscriberCount(dave.workspaceId) > 0; i++) {
      t.app.bus.publish(dave.workspaceId, { type: 'tool_call', data: { i, big } });
      await new Promise((r) => setImmediate(r));
    }
    expect(t.app.bus.subscriberCount(dave.workspaceId)).toBe(0);
    response.destroy();
  });

  it('stops delivering to a client that went away', async () => {
    const erin = await createMemberWithWorkspace(t.database.db, t.config.secret, 'Erin');
    const sse = await openSse(streamUrl(erin.workspaceId, erin.token));
    await sse.waitFor((m) => m.type === 'heartbeat');
    expect(t.app.bus.subscriberCount(erin.workspaceId)).toBe(1);
    sse.close();
    await new Promise<void>((resolve) => {
      const poll = () => (t.app.bus.subscriberCount(erin.workspaceId) === 0 ? resolve() : setImmediate(poll));
      poll();
    });
  });
});

describe(`live stream lifecycle (${engineName})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.drop());

  it('sends a heartbeat every 25 s (simulated clock)', async () => {
    const t = await buildTestApp({}, database);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const member = await createMemberWithWorkspace(database.db, t.config.secret, 'Fay');
    jest.useFakeTimers({
      doNotFake: [
        'nextTick',
        'setImmediate',
        'clearImmediate',
        'setTimeout',
        'clearTimeout',
        'queueMicrotask',
        'Date',
        'performance',
        'hrtime',
      ],
    });
    try {
      const port = (t.app.server.address() as AddressInfo).port;
      const sse = await openSse(
        `http://127.0.0.1:${port}/api/v1/workspaces/${member.workspaceId}/platform/sse?token=${member.token}`,
      );
      await sse.waitFor((m) => m.type === 'heartbeat');
      expect(sse.messages.filter((m) => m.type === 'heartbeat')).toHaveLength(1);
      jest.advanceTimersByTime(24_999);
      jest.advanceTimersByTime(1);
      await sse.waitFor(() => sse.messages.filter((m) => m.type === 'heartbeat').length === 2);
      jest.advanceTimersByTime(25_000);
      await sse.waitFor(() => sse.messages.filter((m) => m.type === 'heartbeat').length === 3);
      sse.close();
    } finally {
      jest.useRealTimers();
      await t.app.close();
    }
  });

  it('ends a stream when its access token expires (the client reconnects with its refreshed token)', async () => {
    const t = await buildTestApp({}, database);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const member = await createMemberWithWorkspace(database.db, t.config.secret, 'Hal');
    const shortLived = await signedInAccessToken(database.db, member.userId, t.config.secret, { ttlSeconds: 2 });
    try {
      const port = (t.app.server.address() as AddressInfo).port;
      const sse = await openSse(
        `http://127.0.0.1:${port}/api/v1/workspaces/${member.workspaceId}/platform/sse?token=${shortLived}`,
      );
      await sse.waitFor((m) => m.type === 'heartbeat');
      const opened = Date.now();
      await sse.ended;
      expect(Date.now() - opened).toBeLessThan(3_000);
      expect(t.app.bus.subscriberCount(member.workspaceId)).toBe(0);
    } finally {
      await t.app.close();
    }
  });

  it('ends the stream of a member removed from the workspace, at the next heartbeat (simulated clock)', async () => {
    const t = await buildTestApp({}, database);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const owner = await createMemberWithWorkspace(database.db, t.config.secret, 'Ivy');
    const guest = await createMemberWithWorkspace(database.db, t.config.secret, 'Jon');
    await database.db.query("insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'member')", [
      owner.workspaceId,
      guest.userId,
    ]);
    jest.useFakeTimers({
      doNotFake: [
        'nextTick',
        'setImmediate',
        'clearImmediate',
        'setTimeout',
        'clearTimeout',
        'queueMicrotask',
        'Date',
        'performance',
        'hrtime',
      ],
    });
    try {
      const port = (t.app.server.address() as AddressInfo).port;
      const sse = await openSse(
        `http://127.0.0.1:${port}/api/v1/workspaces/${owner.workspaceId}/platform/sse?token=${guest.token}`,
      );
      await sse.waitFor((m) => m.type === 'heartbeat');
      jest.advanceTimersByTime(25_000); // still a member: the stream goes on
      await sse.waitFor(() => sse.messages.filter((m) => m.type === 'heartbeat').length === 2);
      expect(t.app.bus.subscriberCount(owner.workspaceId)).toBe(1);
      await database.db.query('delete from workspace_members where workspace_id = $1 and user_id = $2', [
        owner.workspaceId,
        guest.userId,
      ]);
      jest.advanceTimersByTime(25_000);
      await sse.ended;
      expect(t.app.bus.subscriberCount(owner.workspaceId)).toBe(0);
    } finally {
      jest.useRealTimers();
      await t.app.close();
    }
  });

  it('ends every open stream when the app closes, so shutdown is not held up', async () => {
    const t = await buildTestApp({}, database);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const member = await createMemberWithWorkspace(database.db, t.config.secret, 'Gus');
    const port = (t.app.server.address() as AddressInfo).port;
    const sse = await openSse(
      `http://127.0.0.1:${port}/api/v1/workspaces/${member.workspaceId}/platform/sse?token=${member.token}`,
    );
    await sse.waitFor((m) => m.type === 'heartbeat');
    await t.app.close();
    await sse.ended;
    expect(t.app.bus.subscriberCount(member.workspaceId)).toBe(0);
  });

  it('never writes the token to the log', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = loadConfig({}, { secret: generateSecret(), clientDir: undefined, journalDir: undefined });
    const app = await buildApp({ config, db: database.db, logger: { level: 'trace', stream: sink } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const member = await createMemberWithWorkspace(database.db, config.secret, 'Hal');
    const port = (app.server.address() as AddressInfo).port;
    const url = `http://127.0.0.1:${port}/api/v1/workspaces/${member.workspaceId}/platform/sse`;
    const sse = await openSse(`${url}?token=${member.token}`);
    await sse.waitFor((m) => m.type === 'heartbeat');
    sse.close();
    await getJson(`${url}?token=${member.token}.tampered`);
    await app.close();
    expect(lines.join('')).not.toContain(member.token);
  });
});

if (engineName === 'postgres') {
  describe('live stream across instances (postgres LISTEN/NOTIFY)', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase();
    });
    afterAll(() => database.drop());

    it("delivers a message published on one instance to another instance's streams, once", async () => {
      const a = await buildTestApp({}, database);
      const b = await buildTestApp({}, database);
      try {
        await b.app.listen({ host: '127.0.0.1', port: 0 });
        const member = await createMemberWithWorkspace(database.db, a.config.secret, 'Ivy');
        const token = await signedInAccessToken(database.db, member.userId, b.config.secret);
        const port = (b.app.server.address() as AddressInfo).port;
        const sse = await openSse(
          `http://127.0.0.1:${port}/api/v1/workspaces/${member.workspaceId}/platform/sse?token=${token}`,
        );
        const onA: unknown[] = [];
        const stopA = a.app.bus.subscribe(member.workspaceId, (m) => onA.push(m));
        try {
          await sse.waitFor((m) => m.type === 'heartbeat');
          a.app.bus.publish(member.workspaceId, {
            type: 'tool_call',
            data: { toolName: 'huge', result: 'x'.repeat(10_000) },
          });
          a.app.bus.publish(member.workspaceId, { type: 'tool_call', data: { toolName: 'add' } });
          const relayed = await sse.waitFor((m) => m.type === 'tool_call');
          expect(relayed.data).toEqual({ toolName: 'add' });
          b.app.bus.publish(member.workspaceId, { type: 'session_started', data: { id: 's1' } });
          await sse.waitFor((m) => m.type === 'session_started');
          // Over the NOTIFY limit: not relayed (never split, never blocking).
          expect(sse.messages.filter((m) => m.type === 'tool_call')).toHaveLength(1);
          // A's own message is not echoed back to A; B's arrives on A once.
          await new Promise<void>((resolve) => {
            const poll = () => (onA.length >= 3 ? resolve() : setTimeout(poll, 20));
            poll();
          });
          expect(onA.map((m) => (m as { type: string }).type)).toEqual(['tool_call', 'tool_call', 'session_started']);
        } finally {
          stopA();
          sse.close();
        }
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
}
