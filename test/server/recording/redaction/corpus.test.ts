import { BUILTIN_RULES } from '../../../../src/server/recording/redaction/builtinRules';
import { compileRules } from '../../../../src/server/recording/redaction/compiledRules';
import { Redactor } from '../../../../src/server/recording/redaction/redactor';
import type { JsonRpcMessage } from '../../../../src/server/proxy/jsonRpc';
import { CORPUS } from '../../helpers/redactionCorpus';

// Every built-in rule, alone: its values disappear wherever a message carries them (a string
// argument, deep in nested JSON, inside a string that is itself JSON, in a result), and its
// near-misses (wrong checksums, look-alikes) are stored as they are.

function onlyRule(id: string): Redactor {
  const rules = BUILTIN_RULES.map((rule) => ({ id: rule.id, enabled: rule.id === id, hash: false }));
  return new Redactor(compileRules({ rules, customPatterns: [], paths: [], allowlist: [] }), Buffer.alloc(32));
}

const call = (args: unknown): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'lookup', arguments: args },
});
const answer = (text: string): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id: 1,
  result: { content: [{ type: 'text', text }] },
});

/** The places a value may travel in: each as a message holding `text`. */
function carriers(text: string, byKey: boolean): [string, JsonRpcMessage][] {
  const parsed = byKey ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  return [
    ['a string argument', call(parsed ?? { query: text })],
    ['nested JSON', call({ outer: [{ inner: { deeper: parsed ?? text } }] })],
    ['a string that is JSON', call({ body: JSON.stringify({ payload: [parsed ?? text] }) })],
    ['a result', answer(byKey ? text : `result: ${text}`)],
  ];
}

describe('redaction corpus', () => {
  it('has an entry for every built-in rule', () => {
    expect(Object.keys(CORPUS).sort()).toEqual(BUILTIN_RULES.map((rule) => rule.id).sort());
  });

  describe.each(BUILTIN_RULES.map((rule) => rule.id))('%s', (id) => {
    const entry = CORPUS[id];
    const redactor = onlyRule(id);

    it.each(entry.positives.map((positive, i) => [i, positive] as const))(
      'finds positive %i everywhere',
      (_i, positive) => {
        for (const [where, message] of carriers(positive.text, entry.byKey !== undefined)) {
          const stored = JSON.stringify(redactor.redactMessage(message));
          expect({ where, leaked: stored.includes(JSON.stringify(positive.value).slice(1, -1)) }).toEqual({
            where,
            leaked: false,
          });
          expect(stored).toContain(`[REDACTED:${id}]`);
        }
      },
    );

    it('leaves its near-misses as they are', () => {
      for (const nearMiss of entry.nearMisses) {
        for (const [, message] of carriers(nearMiss, entry.byKey !== undefined && nearMiss.startsWith('{'))) {
          expect(redactor.redactMessage(message)).toBe(message);
        }
      }
    });
  });

  it('never changes the message it is given, and shares what it did not change', () => {
    const redactor = onlyRule('github-pat');
    const message = call({ keep: { a: 1 }, token: CORPUS['github-pat'].positives[0].value });
    const before = JSON.stringify(message);
    const stored = redactor.redactMessage(message);
    expect(JSON.stringify(message)).toBe(before);
    const storedArgs = (stored.params as { arguments: Record<string, unknown> }).arguments;
    const args = (message.params as { arguments: Record<string, unknown> }).arguments;
    expect(storedArgs.keep).toBe(args.keep);
    expect(storedArgs.token).toBe('[REDACTED:github-pat]');
  });
});
