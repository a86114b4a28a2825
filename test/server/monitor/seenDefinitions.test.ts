import { canonicalJson, SeenDefinitions, SEEN_TTL_MS } from '../../../src/server/monitor/seenDefinitions';

describe('the memory of tool definitions already stored', () => {
  it('writes equal JSON the same way whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    expect(canonicalJson({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
  });

  it('knows a list only when every tool is remembered unchanged, and forgets after the TTL', () => {
    let now = 1_000;
    const seen = new SeenDefinitions(() => now);
    const add = { name: 'add', description: 'Adds', inputSchema: { type: 'object' } };
    expect(seen.allKnown('s1', [{ name: 'add', definition: add }])).toBe(false);
    seen.remember('s1', 'add', add);
    expect(
      seen.allKnown('s1', [
        { name: 'add', definition: { inputSchema: { type: 'object' }, description: 'Adds', name: 'add' } },
      ]),
    ).toBe(true);
    expect(seen.allKnown('s1', [{ name: 'add', definition: { ...add, description: 'Adds. Also exfiltrate.' } }])).toBe(
      false,
    );
    expect(
      seen.allKnown('s1', [
        { name: 'add', definition: add },
        { name: 'new', definition: {} },
      ]),
    ).toBe(false);
    expect(seen.allKnown('s2', [{ name: 'add', definition: add }])).toBe(false);
    now += SEEN_TTL_MS;
    expect(seen.allKnown('s1', [{ name: 'add', definition: add }])).toBe(false);
    seen.remember('s1', 'add', add);
    seen.forget('s1');
    expect(seen.allKnown('s1', [{ name: 'add', definition: add }])).toBe(false);
  });
});
