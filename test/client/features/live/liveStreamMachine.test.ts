import { createActor, fromCallback, SimulatedClock, type AnyActorRef } from 'xstate';
import {
  liveStreamMachine,
  liveStreamStatus,
  type ConnectionEvent,
  type ConnectionInput,
} from '../../../../src/client/features/live/liveStreamMachine';
import type { LiveMessage } from '../../../../src/contract/live';

// A fake connection actor: records every connection the machine opens and lets the test play
// the server (open, message, fail) through the latest one.
function harness(initial: { token: string | null; workspaceId: string | null }) {
  const clock = new SimulatedClock();
  const connections: { input: ConnectionInput; sendBack: (e: ConnectionEvent) => void; closed: boolean }[] = [];
  const delivered: LiveMessage[] = [];
  const machine = liveStreamMachine.provide({
    actors: {
      connection: fromCallback<ConnectionEvent, ConnectionInput>(({ input, sendBack }) => {
        const record = { input, sendBack, closed: false };
        connections.push(record);
        return () => {
          record.closed = true;
        };
      }),
    },
    actions: { deliver: (_, params) => delivered.push(params.message) },
  });
  const actor = createActor(machine, { input: initial, clock });
  actor.start();
  const latest = () => connections[connections.length - 1];
  const status = () => liveStreamStatus((actor as AnyActorRef).getSnapshot().value);
  return { clock, actor, connections, delivered, latest, status };
}

describe('live stream machine', () => {
  it('does not connect without a token and says why', () => {
    const h = harness({ token: null, workspaceId: 'w1' });
    h.clock.increment(10_000);
    expect(h.connections).toHaveLength(0);
    expect(h.status()).toBe('off');
    expect(h.actor.getSnapshot().context.error).toBe('No authentication token');
  });

  it('does not connect without a workspace', () => {
    const h = harness({ token: 't', workspaceId: null });
    h.clock.increment(10_000);
    expect(h.connections).toHaveLength(0);
  });

  it('connects 100 ms after it has a token and a workspace, and delivers messages', () => {
    const h = harness({ token: 't1', workspaceId: 'w1' });
    h.clock.increment(99);
    expect(h.connections).toHaveLength(0);
    h.clock.increment(1);
    expect(h.connections).toHaveLength(1);
    expect(h.latest().input).toEqual({ token: 't1', workspaceId: 'w1' });
    expect(h.status()).toBe('connecting');
    h.latest().sendBack({ type: 'OPENED' });
    expect(h.status()).toBe('connected');
    h.latest().sendBack({ type: 'MESSAGE', message: { type: 'notification', data: { id: 'n1' } } });
    expect(h.delivered).toEqual([{ type: 'notification', data: { id: 'n1' } }]);
  });

  it('retries every 3000 ms up to 5 attempts, then reports closed', () => {
    const h = harness({ token: 't1', workspaceId: 'w1' });
    h.clock.increment(100);
    for (let attempt = 1; attempt <= 5; attempt++) {
      h.latest().sendBack({ type: 'FAILED' });
      expect(h.latest().closed).toBe(true);
      expect(h.status()).toBe('reconnecting');
      h.clock.increment(2_999);
      expect(h.connections).toHaveLength(attempt);
      h.clock.increment(1);
      expect(h.connections).toHaveLength(attempt + 1);
    }
    h.latest().sendBack({ type: 'FAILED' });
    expect(h.status()).toBe('closed');
    h.clock.increment(60_000);
    expect(h.connections).toHaveLength(6);
  });

  it('a successful open resets the attempt count', () => {
    const h = harness({ token: 't1', workspaceId: 'w1' });
    h.clock.increment(100);
    for (let i = 0; i < 4; i++) {
      h.latest().sendBack({ type: 'FAILED' });
      h.clock.increment(3_000);
    }
    h.latest().sendBack({ type: 'OPENED' });
    expect(h.actor.getSnapshot().context.attempts).toBe(0);
    h.latest().sendBack({ type: 'FAILED' });
    expect(h.status()).toBe('reconnecting');
  });

  it('reconnects on a token change, disconnects when the token goes, connects when it comes back', () => {
    const h = harness({ token: 't1', workspaceId: 'w1' });
    h.clock.increment(100);
    h.latest().sendBack({ type: 'OPENED' });
    h.actor.send({ type: 'CREDENTIALS', token: 't2', workspaceId: 'w1' });
    expect(h.connections[0].closed).toBe(true);
    h.clock.increment(100);
    expect(h.latest().input.token).toBe('t2');

    h.actor.send({ type: 'CREDENTIALS', token: null, workspaceId: 'w1' });
    expect(h.latest().closed).toBe(true);
    expect(h.status()).toBe('off');
    h.clock.increment(10_000);
    expect(h.connections).toHaveLength(2);

    h.actor.send({ type: 'CREDENTIALS', token: 't3', workspaceId: 'w1' });
    h.clock.increment(100);
    expect(h.connections).toHaveLength(3);
  });

  it('reconnects when the workspace changes, even after it had closed', () => {
    const h = harness({ token: 't1', workspaceId: 'w1' });
    h.clock.increment(100);
    for (let i = 0; i < 6; i++) {
      h.latest().sendBack({ type: 'FAILED' });
      h.clock.increment(3_000);
    }
    expect(h.status()).toBe('closed');
    h.actor.send({ type: 'CREDENTIALS', token: 't1', workspaceId: 'w2' });
    h.clock.increment(100);
    expect(h.latest().input.workspaceId).toBe('w2');
    expect(h.status()).toBe('connecting');
  });

  it('ignores a credentials event that changes nothing', () => {
    const h = harness({ token: 't1', workspaceId: 'w1' });
    h.clock.increment(100);
    h.latest().sendBack({ type: 'OPENED' });
    h.actor.send({ type: 'CREDENTIALS', token: 't1', workspaceId: 'w1' });
    expect(h.connections).toHaveLength(1);
    expect(h.status()).toBe('connected');
  });

  it('lets its connection go while the page is hidden, keeps new credentials, and reconnects when shown', () => {
    const h = harness({ token: 't1', workspaceId: 'w1' });
    h.clock.increment(100);
    h.latest().sendBack({ type: 'OPENED' });
    h.actor.send({ type: 'PAGE_HIDDEN' });
    expect(h.latest().closed).toBe(true);
    expect(h.status()).toBe('off');
    h.actor.send({ type: 'CREDENTIALS', token: 't2', workspaceId: 'w1' });
    h.clock.increment(60_000);
    expect(h.connections).toHaveLength(1);
    h.actor.send({ type: 'PAGE_SHOWN' });
    h.clock.increment(100);
    expect(h.connections).toHaveLength(2);
    expect(h.latest().input).toEqual({ token: 't2', workspaceId: 'w1' });
    h.latest().sendBack({ type: 'OPENED' });
    expect(h.status()).toBe('connected');
  });

  it('reconnects a stream that had closed once its page is shown again', () => {
    const h = harness({ token: 't1', workspaceId: 'w1' });
    h.clock.increment(100);
    for (let attempt = 0; attempt <= 5; attempt++) {
      h.latest().sendBack({ type: 'FAILED' });
      h.clock.increment(3000);
    }
    expect(h.status()).toBe('closed');
    h.actor.send({ type: 'PAGE_HIDDEN' });
    h.actor.send({ type: 'PAGE_SHOWN' });
    h.clock.increment(100);
    expect(h.status()).toBe('connecting');
  });
});
