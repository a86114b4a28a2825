import { EventBus } from '../../../src/server/events/bus';
import { startBusRelay } from '../../../src/server/events/busRelay';
import { engineName, openTestDatabase, type TestDatabase } from '../helpers/testDatabase';
import type { LiveMessage } from '../../../src/contract/live';

jest.setTimeout(60_000);

// Two instances' buses joined through one database's LISTEN/NOTIFY (the app starts the relay on
// PostgreSQL only; the relay itself works on any engine that delivers notifications).
describe(`bus relay through LISTEN/NOTIFY (${engineName})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.drop());

  it('carries messages to the other instance once, never back, and skips what NOTIFY cannot hold', async () => {
    const busA = new EventBus();
    const busB = new EventBus();
    const relayA = await startBusRelay(busA, database.db);
    const relayB = await startBusRelay(busB, database.db);
    const onA: LiveMessage[] = [];
    const onB: LiveMessage[] = [];
    busA.subscribe('ws-1', (m) => onA.push(m));
    busB.subscribe('ws-1', (m) => onB.push(m));
    try {
      busA.publish('ws-1', { type: 'tool_call', data: { result: 'x'.repeat(9_000) } });
      busA.publish('ws-1', { type: 'notification', data: { title: 'hi' }, userId: 'u1' });
      busB.publish('ws-1', { type: 'session_started', data: { id: 's' } });
      const deadline = Date.now() + 10_000;
      while ((onB.length < 2 || onA.length < 3) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(onB.map((m) => m.type)).toEqual(['session_started', 'notification']);
      expect(onB[1]).toMatchObject({ data: { title: 'hi' }, userId: 'u1' });
      expect(onA.map((m) => m.type)).toEqual(['tool_call', 'notification', 'session_started']);
      expect(relayA.oversizedSkipped).toBe(1);

      // A burst (a recorder flush announcing its batch) arrives whole and in order, packed into few NOTIFYs.
      const notifies: string[] = [];
      const unlistenSpy = await database.db.listen('toolscope_live', (payload) => notifies.push(payload));
      const burst = Array.from({ length: 40 }, (_, i) => ({
        type: 'tool_call',
        data: { n: i, result: 'r'.repeat(300) },
      }));
      onB.length = 0;
      for (const message of burst) busA.publish('ws-1', message);
      const until = Date.now() + 10_000;
      while (onB.length < 40 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      await unlistenSpy();
      expect(onB.map((m) => (m.data as { n: number }).n)).toEqual(burst.map((_, i) => i));
      expect(notifies.length).toBeGreaterThanOrEqual(2); // 40 × ~330 bytes do not fit one 8000-byte NOTIFY
      expect(notifies.length).toBeLessThanOrEqual(3);
      for (const payload of notifies) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(7999);

      // Bursts in consecutive turns (flushes while the previous NOTIFY is still in flight) keep
      // their order too: a dashboard must not see a call's end before its start.
      onB.length = 0;
      const total = 400;
      for (let turn = 0; turn < 10; turn++) {
        for (let i = 0; i < total / 10; i++)
          busA.publish('ws-1', { type: 'tool_call', data: { n: turn * 40 + i, result: 'r'.repeat(300) } });
        await new Promise((r) => setImmediate(r));
      }
      const last = Date.now() + 10_000;
      while (onB.length < total && Date.now() < last) await new Promise((r) => setTimeout(r, 20));
      expect(onB.map((m) => (m.data as { n: number }).n)).toEqual(Array.from({ length: total }, (_, i) => i));
    } finally {
      await relayA.stop();
      await relayB.stop();
    }
  });
});

// A database restart or failover drops the LISTEN connection: the instance must survive it and
// keep relaying once the connection is back (PostgreSQL only: PGlite has no connections to lose).
if (engineName === 'postgres') {
  describe('bus relay after the LISTEN connection is lost (postgres)', () => {
    it('reconnects, listens again and relays the next messages', async () => {
      const database = await openTestDatabase();
      const busA = new EventBus();
      const busB = new EventBus();
      const relayA = await startBusRelay(busA, database.db);
      const relayB = await startBusRelay(busB, database.db);
      const onB: LiveMessage[] = [];
      busB.subscribe('ws-1', (m) => onB.push(m));
      try {
        const terminated = await database.db.query<{ ok: boolean }>(
          `select pg_terminate_backend(pid) as ok from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid() and query like 'listen %'`,
        );
        expect(terminated.length).toBeGreaterThan(0);
        const deadline = Date.now() + 15_000;
        while (onB.length === 0 && Date.now() < deadline) {
          busA.publish('ws-1', { type: 'session_started', data: { id: 'after-restart' } });
          await new Promise((r) => setTimeout(r, 200));
        }
        expect(onB[0]).toMatchObject({ type: 'session_started', data: { id: 'after-restart' } });
      } finally {
        await relayA.stop();
        await relayB.stop();
        await database.drop();
      }
    });
  });
}
