// Building the app and its database takes seconds on a loaded machine.
jest.setTimeout(60_000);

import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { buildApp, type App } from '../../../src/server/app';
import { generateSecret, loadConfig } from '../../../src/server/config';
import { engineName, openTestDatabase, type TestDatabase } from '../helpers/testDatabase';

/** Reads raw HTTP/1.1 responses from a socket and hands out their status lines in order. */
function statusLines(socket: net.Socket): () => Promise<string> {
  let buffer = '';
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  socket.on('data', (chunk) => {
    buffer += chunk.toString('utf8');
    for (let match = /HTTP\/1\.1 \d{3}[^\r]*/.exec(buffer); match; match = /HTTP\/1\.1 \d{3}[^\r]*/.exec(buffer)) {
      buffer = buffer.slice(match.index + match[0].length);
      const waiter = waiting.shift();
      if (waiter) waiter(match[0]);
      else lines.push(match[0]);
    }
  });
  return () => (lines.length ? Promise.resolve(lines.shift()!) : new Promise((resolve) => waiting.push(resolve)));
}

// SIGTERM in main.ts calls app.close(): the server stops taking work (503) but lets requests
// already running finish. Proven on a real listening app with a request held open on purpose.
describe(`graceful shutdown (${engineName})`, () => {
  let database: TestDatabase;
  let app: App;
  let releaseSlowRequest: () => void = () => undefined;
  let slowRequestStarted: Promise<void>;

  beforeAll(async () => {
    database = await openTestDatabase();
    app = await buildApp({
      config: loadConfig({}, { secret: generateSecret(), clientDir: undefined, journalDir: undefined }),
      db: database.db,
    });
    let markStarted: () => void = () => undefined;
    slowRequestStarted = new Promise((resolve) => (markStarted = resolve));
    // A route that stays in flight until the test lets it finish, then touches the database.
    app.get('/test/in-flight', async () => {
      markStarted();
      await new Promise<void>((resolve) => (releaseSlowRequest = resolve));
      const rows = await database.db.query<{ n: number }>('select count(*)::int as n from users');
      return { finished: true, users: rows[0].n };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it('answers 503 to a request arriving while closing, finishes the in-flight one, then stops listening', async () => {
    const { port } = app.server.address() as AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    const nextStatus = statusLines(socket);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write('GET /test/in-flight HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await slowRequestStarted;

    // A second client has begun sending its request when shutdown starts; it completes the
    // request after the server stopped taking work.
    // The server has read the first bytes (its HTTP parser listens first, so it has them too).
    const serverReadLateBytes = new Promise<void>((resolve) =>
      app.server.once('connection', (s: net.Socket) => s.once('data', () => resolve())),
    );
    const late = net.connect(port, '127.0.0.1');
    const lateStatus = statusLines(late);
    late.write('GET /api/v1/config HTTP/1.1\r\nHost: localhost\r\n');
    await serverReadLateBytes;
    const closed = app.close();
    late.write('\r\n');
    expect(await lateStatus()).toBe('HTTP/1.1 503 Service Unavailable');
    releaseSlowRequest();
    expect(await nextStatus()).toBe('HTTP/1.1 200 OK');
    // close() resolves once the clients have gone.
    socket.destroy();
    late.destroy();
    await closed;
    // Stopped listening: a new connection is refused.
    await expect(
      new Promise((resolve, reject) => net.connect(port, '127.0.0.1').once('connect', resolve).once('error', reject)),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

// An agent whose stream the proxy closed at shutdown reconnects at once: a connection that has
// sent nothing yet. Node's server.close() waits for such a connection until the client leaves:
// close() must not.
describe(`graceful shutdown with a connection that sent no request (${engineName})`, () => {
  let database: TestDatabase;
  let app: App;

  beforeAll(async () => {
    database = await openTestDatabase();
    app = await buildApp({
      config: loadConfig({}, { secret: generateSecret(), clientDir: undefined, journalDir: undefined }),
      db: database.db,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await database.drop();
  });

  it('closes without waiting for the client to leave, and the client sees its connection end', async () => {
    const { port } = app.server.address() as AddressInfo;
    const silent = net.connect(port, '127.0.0.1');
    const ended = new Promise<void>((resolve) => silent.once('close', () => resolve()));
    await new Promise<void>((resolve) => silent.once('connect', () => resolve()));
    // A kept-alive connection with a finished request, as the SDK leaves between calls, too.
    const keptAlive = net.connect(port, '127.0.0.1');
    const keptStatus = statusLines(keptAlive);
    keptAlive.write('GET /api/v1/config HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(await keptStatus()).toBe('HTTP/1.1 200 OK');

    const closed = app.close().then(() => 'closed' as const);
    // Without the drain this waits until the client leaves (below, it leaves after 10 s).
    const waited = new Promise<'still waiting'>((resolve) =>
      setTimeout(() => resolve('still waiting'), 10_000).unref(),
    );
    const outcome = await Promise.race([closed, waited]);
    // Without the drain the client would have to leave first: it does, so the failure is reported rather than hung.
    if (outcome !== 'closed') silent.destroy();
    expect(outcome).toBe('closed');
    await ended;
    keptAlive.destroy();
  });
});
