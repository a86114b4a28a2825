import type { AddressInfo } from 'node:net';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { bearer, registerAccount, type TestAccount } from '../helpers/accounts';
import { addToWorkspace } from '../helpers/workspaceMembers';
import { openSse, type SseConnection } from '../monitor/support/sseReader';
import { startBusRelay, type BusRelay } from '../../../src/server/events/busRelay';
import { createPasswordReset } from '../../../src/server/auth/passwordResets';

jest.setTimeout(300_000);

// Issue 16 item 5: a removed member kept the live stream for ~24 s and received a tool call's
// arguments after removal. Removing a member, signing out and changing the password now close the
// user's open streams at once — on every instance: the stream here is held by instance B while
// instance A makes the change, and the revocation crosses over the bus relay.
describe(`losing access closes live streams at once, on every instance (${engineName})`, () => {
  let a: TestApp;
  let b: TestApp;
  let baseB: string;
  const relays: BusRelay[] = [];
  let owner: TestAccount;

  beforeAll(async () => {
    a = await buildTestApp();
    b = await buildTestApp({ secret: a.config.secret }, a.database);
    await b.app.listen({ host: '127.0.0.1', port: 0 });
    baseB = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
    // The app starts the relay itself on PostgreSQL; on PGlite (one process, one database) the
    // test joins the two buses with the same relay.
    if (a.app.db.engine !== 'postgres')
      relays.push(await startBusRelay(a.app.bus, a.app.db), await startBusRelay(b.app.bus, b.app.db));
    owner = await registerAccount(a.app);
  });
  afterAll(async () => {
    for (const relay of relays) await relay.stop();
    b.app.server.closeAllConnections();
    await b.app.close();
    await a.close();
  });

  const streamOnB = (who: TestAccount, token = who.accessToken) =>
    openSse(`${baseB}/api/v1/workspaces/${owner.workspaceId}/platform/sse?token=${encodeURIComponent(token)}`);

  /** Resolves when the server ends the stream; fails the test if that takes longer than `ms`. */
  async function endsWithin(sse: SseConnection, ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error(`stream still open after ${ms} ms`)), ms)),
    );
    try {
      await Promise.race([sse.ended, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  it('closes a removed member’s stream within a second, and they receive nothing after', async () => {
    const member = await registerAccount(a.app);
    await addToWorkspace(a.app, owner.workspaceId, member, 'member');
    const sse = await streamOnB(member);
    await sse.waitFor((m) => m.type === 'heartbeat');
    const removed = await a.app.inject({
      method: 'DELETE',
      url: `/api/v1/workspaces/${owner.workspaceId}/members/${member.user.id}`,
      headers: bearer(owner.accessToken),
    });
    expect(removed.statusCode).toBe(204);
    await endsWithin(sse, 1_000);
    b.app.bus.publish(owner.workspaceId, { type: 'tool_call', data: { arguments: { secret: 'after removal' } } });
    expect(sse.messages.map((m) => m.type)).toEqual(['heartbeat']);
    sse.close();
  });

  it('closes the stream of a sign-in that signs out, and that sign-in’s token opens no workspace route', async () => {
    const member = await registerAccount(a.app);
    await addToWorkspace(a.app, owner.workspaceId, member, 'member');
    const other = await a.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: member.email, password: member.password },
    });
    const otherSignIn = other.json<{ accessToken: string }>();
    const signedOut = await streamOnB(member);
    const stillSignedIn = await streamOnB(member, otherSignIn.accessToken);
    await signedOut.waitFor((m) => m.type === 'heartbeat');
    await stillSignedIn.waitFor((m) => m.type === 'heartbeat');
    expect(
      (
        await a.app.inject({
          method: 'POST',
          url: '/api/v1/auth/logout',
          payload: { refreshToken: member.refreshToken },
        })
      ).statusCode,
    ).toBe(200);
    await endsWithin(signedOut, 1_000);
    // The other sign-in of the same person keeps its stream.
    b.app.bus.publish(owner.workspaceId, { type: 'tool_call', data: { toolName: 'still-here' } });
    await stillSignedIn.waitFor((m) => m.type === 'tool_call');
    const reconnect = await a.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${owner.workspaceId}/members`,
      headers: bearer(member.accessToken),
    });
    expect(reconnect.statusCode).toBe(401);
    stillSignedIn.close();
  });

  it('closes every stream of the account when its password is changed', async () => {
    const member = await registerAccount(a.app);
    await addToWorkspace(a.app, owner.workspaceId, member, 'member');
    const sse = await streamOnB(member);
    await sse.waitFor((m) => m.type === 'heartbeat');
    // The reset link's token travels by mail only; the test makes one the same way the route does.
    const token = await createPasswordReset(a.database.db, member.user.id);
    const reset = await a.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token: token!, password: 'a brand new passphrase', passwordConfirmation: 'a brand new passphrase' },
    });
    expect(reset.statusCode).toBe(200);
    await endsWithin(sse, 1_000);
    sse.close();
  });
});
