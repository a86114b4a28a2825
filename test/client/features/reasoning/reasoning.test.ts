import { describeNext, extractReasoning, parseTraceparent } from '../../../../src/client/features/reasoning/reasoning';
import { toolCall } from '../sessions/sessionFixtures';

describe('reasoning of a tool call', () => {
  it('takes reasoning-named text from _meta, including namespaced and nested keys, and from arguments', () => {
    const call = toolCall(1, {
      meta: {
        progressToken: 7,
        'com.acme/rationale': 'Need the config first',
        agent: { thought: ['check', 'then edit'] },
        reason: 42,
      },
      arguments: { path: '/etc/app.yaml', justification: 'user asked to edit it' },
    });
    expect(extractReasoning(call).texts).toEqual([
      { source: 'meta', key: 'com.acme/rationale', text: 'Need the config first' },
      { source: 'meta', key: 'agent.thought', text: 'check\nthen edit' },
      { source: 'arguments', key: 'justification', text: 'user asked to edit it' },
    ]);
  });

  it('reads the W3C traceparent from the call or from _meta, rejecting malformed ones', () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect(extractReasoning(toolCall(1, { traceparent })).trace).toEqual({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      parentSpanId: '00f067aa0ba902b7',
      sampled: true,
    });
    expect(extractReasoning(toolCall(1, { meta: { traceparent } })).trace?.traceId).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
    expect(parseTraceparent('00-00000000000000000000000000000000-00f067aa0ba902b7-01')).toBeNull();
    expect(parseTraceparent('garbage')).toBeNull();
    expect(extractReasoning(toolCall(1)).texts).toEqual([]);
  });

  it('says what the agent did after each call', () => {
    const failed = toolCall(1, { status: 'error', toolName: 'fetch' });
    expect(describeNext(failed, toolCall(2, { toolName: 'fetch', arguments: failed.arguments }))).toMatch(
      /^Retried fetch .*with the same arguments\.$/,
    );
    expect(describeNext(failed, toolCall(2, { toolName: 'search' }))).toMatch(/^Switched to search/);
    expect(describeNext(failed, undefined)).toBe('No further calls: the agent stopped after this failure.');
    // An active session's latest call is not its last (issue 14 item 10).
    expect(describeNext(toolCall(1), undefined, true)).toBe('Latest call so far: the session is still active.');
    expect(describeNext(toolCall(1), undefined)).toBe('Last call of the session.');
    expect(describeNext(toolCall(1), toolCall(2, { toolName: 'write_file' }))).toBe('Then write_file.');
  });
});
