import type { ActivityEvent } from '../../../../src/contract/activity';
import {
  feedReducer,
  initialFeed,
  liveMessageToEvent,
  mergeEvents,
  newestAt,
} from '../../../../src/client/features/activity/activityFeed';
import { session, toolCall } from '../sessions/sessionFixtures';

const call = (i: number, status: 'ok' | 'pending' = 'ok'): ActivityEvent => {
  const tc = toolCall(i, { status });
  return { kind: 'tool_call', at: tc.startedAt, toolCall: tc };
};

describe('activity feed buffer', () => {
  it('keeps events newest first, without duplicates, the later copy winning', () => {
    const merged = mergeEvents([call(1, 'pending'), call(0)], [call(2), call(1)]);
    expect(merged.map((e) => e.kind === 'tool_call' && [e.toolCall.id, e.toolCall.status])).toEqual([
      [toolCall(2).id, 'ok'],
      [toolCall(1).id, 'ok'],
      [toolCall(0).id, 'ok'],
    ]);
  });

  it('is bounded', () => {
    const many = Array.from({ length: 50 }, (_, i) => call(i));
    expect(mergeEvents([], many, 20)).toHaveLength(20);
    expect(mergeEvents([], many, 20)[0]).toEqual(call(49));
  });

  it('holds what arrives while paused and shows it on resume', () => {
    let state = feedReducer(initialFeed, { type: 'received', events: [call(0)] });
    state = feedReducer(state, { type: 'paused' });
    state = feedReducer(state, {
      type: 'received',
      events: [call(1), { kind: 'session_started', at: session(0).startedAt, session: session(0) }],
    });
    expect(state.events).toHaveLength(1);
    expect(state.pending).toHaveLength(2);
    expect(newestAt(state)).toBe(call(1).at);
    state = feedReducer(state, { type: 'resumed' });
    expect(state).toMatchObject({ paused: false, pending: [] });
    expect(state.events).toHaveLength(3);
  });
});

describe('live stream messages as feed events', () => {
  it('maps tool calls and session starts and ends, and ignores the rest', () => {
    expect(liveMessageToEvent({ type: 'tool_call', data: toolCall(1) })).toEqual(call(1));
    expect(liveMessageToEvent({ type: 'session_started', data: session(0) })).toEqual({
      kind: 'session_started',
      at: session(0).startedAt,
      session: session(0),
    });
    expect(liveMessageToEvent({ type: 'session_ended', data: session(0) })).toEqual({
      kind: 'session_ended',
      at: session(0).endedAt,
      session: session(0),
    });
    expect(liveMessageToEvent({ type: 'heartbeat', data: {} })).toBeNull();
  });
});
