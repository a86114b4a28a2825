import { declaresServerRequests, SessionOrder } from '../../../src/server/proxy/sessionOrder';

// The ordering rule alone (streamOrder.test.ts proves it with SDK peers through the proxy).
describe('SessionOrder', () => {
  const key = SessionOrder.key('proxy-key', 'session-1');

  it('lets a request go at once when no GET of its session is on its way', () => {
    const order = new SessionOrder(60_000);
    order.streamOpening(SessionOrder.key('proxy-key', 'another-session'));
    expect(order.earlierStreams(key)).toBeUndefined();
  });

  it('holds a later request until every earlier GET of the session is open, and none after', async () => {
    const order = new SessionOrder(60_000);
    const firstOpened = order.streamOpening(key);
    const secondOpened = order.streamOpening(key);
    let released = false;
    const waiting = order.earlierStreams(key)?.then(() => (released = true));
    expect(waiting).toBeDefined();
    firstOpened();
    await Promise.resolve();
    expect(released).toBe(false);
    secondOpened();
    secondOpened(); // idempotent
    await waiting;
    expect(released).toBe(true);
    expect(order.pending).toBe(0);
    expect(order.earlierStreams(key)).toBeUndefined();
  });

  it('stops holding requests once a GET has waited the longest allowed for its headers', async () => {
    const order = new SessionOrder(1);
    order.streamOpening(key);
    await order.earlierStreams(key);
    expect(order.pending).toBe(0);
  });

  it('reads sampling, elicitation and roots as capabilities that let the server ask the client', () => {
    expect(declaresServerRequests({ capabilities: { sampling: {} } })).toBe(true);
    expect(declaresServerRequests({ capabilities: { roots: { listChanged: true } } })).toBe(true);
    expect(declaresServerRequests({ capabilities: { experimental: {} } })).toBe(false);
    expect(declaresServerRequests({ capabilities: null })).toBe(false);
    expect(declaresServerRequests(undefined)).toBe(false);
  });

  describe('a GET the agent has not sent yet', () => {
    const agent = SessionOrder.agent('proxy-key', 'agent-fingerprint');
    const first = SessionOrder.key('proxy-key', 'first');
    const second = SessionOrder.key('proxy-key', 'second');

    it('holds nothing for an agent never seen to open a GET after initializing', () => {
      const order = new SessionOrder(60_000, 60_000);
      order.initializing(first, agent);
      expect(order.earlierStreams(first)).toBeUndefined();
    });

    it('holds nothing for a new agent whose initialize let the server ask it nothing', () => {
      const order = new SessionOrder(60_000, 60_000);
      order.initializeSent(agent, declaresServerRequests({ capabilities: {}, clientInfo: { name: 'c' } }));
      order.initializing(first, agent);
      expect(order.earlierStreams(first)).toBeUndefined();
    });

    it('holds the first session of a new agent that declared elicitation until its GET is open', async () => {
      const order = new SessionOrder(60_000, 60_000);
      order.initializeSent(agent, declaresServerRequests({ capabilities: { elicitation: {} } }));
      order.initializing(first, agent);
      let released = false;
      const waiting = order.earlierStreams(first)?.then(() => (released = true));
      expect(waiting).toBeDefined();
      const opened = order.streamOpening(first);
      await Promise.resolve();
      await Promise.resolve();
      expect(released).toBe(false);
      opened();
      await waiting;
      expect(released).toBe(true);
    });

    it('trusts what the agent did over what it declares', async () => {
      const order = new SessionOrder(60_000, 1);
      order.initializeSent(agent, true);
      order.initializing(first, agent);
      await order.earlierStreams(first); // no GET came: the wait ends, and the agent is known not to open one
      order.initializeSent(agent, true);
      order.initializing(second, agent);
      expect(order.earlierStreams(second)).toBeUndefined();
    });

    it('holds the next session of an agent that opened its GET after initializing until that GET is open', async () => {
      const order = new SessionOrder(60_000, 60_000);
      order.initializing(first, agent);
      order.streamOpening(first)();
      order.initializing(second, agent);
      let released = false;
      const waiting = order.earlierStreams(second)?.then(() => (released = true));
      expect(waiting).toBeDefined();
      const opened = order.streamOpening(second);
      await Promise.resolve();
      await Promise.resolve();
      expect(released).toBe(false);
      opened();
      await waiting;
      expect(released).toBe(true);
      expect(order.pending).toBe(0);
    });

    it('stops waiting when the GET does not come, and holds that agent no more', async () => {
      const order = new SessionOrder(60_000, 1);
      order.initializing(first, agent);
      order.streamOpening(first)();
      order.initializing(second, agent);
      await order.earlierStreams(second);
      expect(order.pending).toBe(0);
      const third = SessionOrder.key('proxy-key', 'third');
      order.initializing(third, agent);
      expect(order.earlierStreams(third)).toBeUndefined();
    });
  });
});
