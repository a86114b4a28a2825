import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { QueuedToolCall } from '../../../src/server/recording/rows';
import { TOKEN_SAMPLE_ABOVE_CHARS } from '../../../src/contract/pricing';
import { argumentTokens, resultTokens, sampleForCounting } from '../../../src/server/recording/tokenCounter';
import { TokenizerThread } from '../../../src/server/recording/tokenizerThread';
import { TrafficRollup } from '../../../src/server/recording/trafficRollup';

// Tokenizing runs on the tokenizer thread from the moment a call settles; the write that takes
// the call finds its counts set, equal to what the recorder's thread would count itself (cut
// payloads scaled to their whole size alike). A call whose counts are not back is counted in take.

function settledCall(
  n: number,
  result: unknown,
  args: unknown = { query: `revenue by region ${n}`, limit: 20 },
): QueuedToolCall {
  return {
    id: `call-${n}`,
    workspace_id: 'w',
    server_id: 's',
    server_name: null,
    session_id: 'no-session',
    jsonrpc_id: String(n),
    tool_name: 'search',
    arguments: args,
    result,
    error_message: null,
    status: 'ok',
    started_at: new Date().toISOString(),
    ended_at: new Date().toISOString(),
    duration_ms: 12,
    request_bytes: 4000,
    response_bytes: 9000,
    tokens_estimate: 0,
    meta: null,
    traceparent: null,
    request_seq: 1,
    request_payload: '',
    request_truncated: false,
    response_seq: 2,
    response_kind: 'response',
    response_payload: '',
    response_truncated: false,
  } as QueuedToolCall;
}

describe('token counts from the tokenizer thread', () => {
  it('are set before the write takes the calls, exactly as counted on this thread', async () => {
    expect(TokenizerThread.shared()).not.toBeNull();
    const rollup = new TrafficRollup();
    const calls = [
      settledCall(1, {
        content: [{ type: 'text', text: 'Found 3 matching lines.\nline 1: revenue for region 4 rose 7 %' }],
      }),
      settledCall(2, { error: { code: -32602, message: 'Unknown argument: colour' } }),
      // Cut by the recorder: the start's tokens scaled to the whole size.
      settledCall(
        3,
        {
          truncated: true,
          preview: '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"' + 'lorem ipsum '.repeat(40),
        },
        { truncated: true, preview: '{"query":"' + 'x'.repeat(100) },
      ),
      settledCall(4, null, null),
    ];
    for (const call of calls) rollup.add(call);
    await rollup.ready(10_000);
    for (const call of calls) {
      expect(call.argument_tokens).toBe(argumentTokens({ ...call, argument_tokens: undefined }));
      expect(call.result_tokens).toBe(resultTokens({ ...call, result_tokens: undefined }));
    }
    expect(calls[0].result_tokens).toBe(countTokens('Found 3 matching lines.\nline 1: revenue for region 4 rose 7 %'));
    expect(calls[2].result_tokens).toBeGreaterThan(countTokens((calls[2].result as { preview: string }).preview));
    expect(calls[3].argument_tokens).toBe(0);
    const { traffic } = rollup.take();
    expect(traffic?.minutes[0].result_tokens).toBe(calls.reduce((sum, call) => sum + (call.result_tokens ?? 0), 0));
  });

  it('a call taken before its counts are back is counted by the write itself', () => {
    const rollup = new TrafficRollup();
    const call = settledCall(5, { content: [{ type: 'text', text: 'counted right away' }] });
    rollup.add(call);
    const { traffic } = rollup.take();
    expect(call.result_tokens).toBe(countTokens('counted right away'));
    expect(traffic?.minutes[0].result_tokens).toBe(call.result_tokens);
  });

  it('a call settled while the write waits for the thread is posted and counted there, not left to the write', async () => {
    // The group timer (POST_MS) never fires here: only the wait's own post can take the second call.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const rollup = new TrafficRollup();
      const first = settledCall(10, { content: [{ type: 'text', text: 'posted by the wait' }] });
      const during = settledCall(11, { content: [{ type: 'text', text: 'settled during the wait' }] });
      rollup.add(first);
      const waited = rollup.ready(10_000);
      rollup.add(during);
      await waited;
      expect(first.result_tokens).toBe(countTokens('posted by the wait'));
      expect(during.result_tokens).toBe(countTokens('settled during the wait'));
    } finally {
      jest.useRealTimers();
    }
  });

  it('counts a long result from a sample scaled to its length, the same on the thread as on the write, within a few percent', async () => {
    // Varied prose and numbers, ~40 KB: beyond the sampling threshold.
    const lines = Array.from(
      { length: 500 },
      (_, k) =>
        `row ${k}: the ${['north', 'south', 'east', 'west'][k % 4]} region shipped ${(k * 37) % 1000} units at $${(k * 13) % 97}.${k % 10}9 each`,
    );
    const text = lines.join('\n');
    expect(text.length).toBeGreaterThan(TOKEN_SAMPLE_ABOVE_CHARS);
    const sample = sampleForCounting(text);
    expect(sample.scale).toBeGreaterThan(10); // a sample of ~2 KB stands for ~40 KB
    const rollup = new TrafficRollup();
    const onThread = settledCall(7, { content: [{ type: 'text', text }] });
    rollup.add(onThread);
    await rollup.ready(10_000);
    const inWrite = resultTokens({ ...onThread, result_tokens: undefined });
    expect(onThread.result_tokens).toBe(inWrite);
    const exact = countTokens(text);
    expect(Math.abs((inWrite - exact) / exact)).toBeLessThan(0.1);
    // Up to the threshold a text is counted whole: exact.
    const short = text.slice(0, TOKEN_SAMPLE_ABOVE_CHARS);
    expect(resultTokens(settledCall(8, { content: [{ type: 'text', text: short }] }))).toBe(countTokens(short));
  });

  it("counts a result quoting a special token ('<|endoftext|>') as text, on the thread and in the write (the tokenizer's default throws)", async () => {
    const text = 'The model stops at <|endoftext|> and <|endofprompt|> markers.';
    const rollup = new TrafficRollup();
    const call = settledCall(9, { content: [{ type: 'text', text }] });
    rollup.add(call);
    await rollup.ready(10_000);
    expect(call.result_tokens).toBe(countTokens(text, { disallowedSpecial: new Set() }));
    expect(resultTokens({ ...call, result_tokens: undefined })).toBe(call.result_tokens);
    expect(() => countTokens(text)).toThrow();
  });
});
