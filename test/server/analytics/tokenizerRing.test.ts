import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { QueuedToolCall } from '../../../src/server/recording/rows';
import { resultTokens } from '../../../src/server/recording/tokenCounter';
import { TokenizerThread } from '../../../src/server/recording/tokenizerThread';
import { MAX_TEXT_BYTES, readRing, ringBytes, ringLayout, TextRing } from '../../../src/server/recording/tokenizerRing';
import { TrafficRollup } from '../../../src/server/recording/trafficRollup';

// The texts of settled calls reach the tokenizer thread through a ring of shared memory: the
// proxy's thread copies them there, the reader counts them in order, and the counts come back
// through the same memory. What a user relies on: every call's counts are those of its own texts,
// however the ring wraps, fills and empties, and a text the ring cannot hold is counted all the same.

/** A count that changes with any byte of the text: a reader that read the wrong bytes is caught. */
function fingerprint(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash & 0x7fffffff;
}

function smallRing() {
  const layout = ringLayout({ slots: 8, dataBytes: 64 });
  const ring = new TextRing(new SharedArrayBuffer(ringBytes(layout)), layout);
  const reading = readRing(ring.memory, layout, fingerprint);
  return { ring, reading };
}

async function counted(ring: TextRing, seq: number): Promise<number> {
  await ring.waitCounted((seq + 1) | 0, 10_000);
  const count = ring.countOf(seq);
  if (count === undefined) throw new Error(`text ${seq} was not counted`);
  return count;
}

/** A reader driven one text at a time, as the tokenizer thread reads the ring (readRing). */
function steppedReader(ring: TextRing) {
  const { layout, memory } = ring;
  const control = new Int32Array(memory, layout.control.byteOffset, layout.control.ints);
  const spans = new Int32Array(memory, layout.spans.byteOffset, layout.spans.ints);
  const counts = new Int32Array(memory, layout.counts.byteOffset, layout.counts.ints);
  const data = Buffer.from(memory, layout.data.byteOffset, layout.data.bytes);
  let next = 0;
  let lastStart = -1;
  const reader = {
    /** Times a text started before the one read before it: the ring went round. */
    wraps: 0,
    /** Reads and counts the next text written. */
    countOne(): string {
      const slot = next & (layout.slots - 1);
      const start = spans[slot * 2];
      if (start < lastStart) reader.wraps++;
      lastStart = start;
      const text = data.toString('utf8', start, start + spans[slot * 2 + 1]);
      counts[slot] = fingerprint(text);
      next = (next + 1) | 0;
      Atomics.store(control, layout.at.counted, next);
      return text;
    },
  };
  return reader;
}

describe('the tokenizer ring', () => {
  it('keeps every text intact while the ring wraps around with texts still to count, multi-byte and empty ones included', () => {
    const layout = ringLayout({ slots: 8, dataBytes: 64 });
    const ring = new TextRing(new SharedArrayBuffer(ringBytes(layout)), layout);
    const reader = steppedReader(ring);
    const words = ['', 'a', 'naïve café', 'Grüße 👋', 'x'.repeat(20), '数据', 'line\nbreak', 'tab\there'];
    const waiting: { seq: number; text: string }[] = [];
    let refused = 0;
    const readOne = () => {
      const { seq, text } = waiting.shift() as { seq: number; text: string };
      // Its bytes were not overwritten by a later text, and its count is its own.
      expect(reader.countOne()).toBe(text);
      expect(ring.countOf(seq)).toBe(fingerprint(text));
      ring.release((seq + 1) | 0);
    };
    for (let n = 0; n < 2000; n++) {
      // The reader reads one text for every three pairs written: the ring runs full and goes round.
      if (n % 3 === 0 && waiting.length > 0) readOne();
      const texts = [words[n % words.length], `${n}:${words[(n * 3) % words.length]}`];
      const first = ring.write(texts);
      if (first === -1) {
        refused++;
        continue;
      }
      texts.forEach((text, i) => waiting.push({ seq: (first + i) | 0, text }));
    }
    while (waiting.length > 0) readOne();
    expect(refused).toBeGreaterThan(100);
    expect(reader.wraps).toBeGreaterThan(50);
  });

  it('hands back each text’s count from the reader the tokenizer thread runs', async () => {
    const layout = ringLayout({ slots: 8, dataBytes: 64 });
    const ring = new TextRing(new SharedArrayBuffer(ringBytes(layout)), layout);
    const reading = readRing(ring.memory, layout, fingerprint);
    try {
      for (let n = 0; n < 200; n++) {
        const texts = [`call ${n}`, n % 5 === 0 ? '' : `résultat ${n} ✓`];
        const first = ring.write(texts);
        expect(first).not.toBe(-1);
        expect(await counted(ring, first)).toBe(fingerprint(texts[0]));
        // An empty text is 0 tokens without asking the tokenizer.
        expect(await counted(ring, (first + 1) | 0)).toBe(texts[1] === '' ? 0 : fingerprint(texts[1]));
        ring.release((first + 2) | 0);
      }
    } finally {
      ring.close();
      await reading;
    }
  });

  it('refuses texts when its bytes or slots are full of texts not yet counted or read, and takes them again after', async () => {
    const layout = ringLayout({ slots: 4, dataBytes: 64 });
    const ring = new TextRing(new SharedArrayBuffer(ringBytes(layout)), layout);
    // No reader yet: nothing is counted, so nothing is freed.
    expect(ring.write(['0123456789', '0123456789'])).toBe(0);
    expect(ring.write(['0123456789', '0123456789'])).toBe(2);
    expect(ring.write(['a'])).toBe(-1); // four slots in use
    const reading = readRing(ring.memory, layout, fingerprint);
    try {
      expect(await counted(ring, 3)).toBe(fingerprint('0123456789'));
      expect(ring.write(['a'])).toBe(-1); // counted, but their counts not read yet
      ring.release(4);
      // 40 bytes counted and read: the ring is empty again and takes texts from its start.
      expect(ring.write(['y'.repeat(30), 'z'.repeat(30)])).toBe(4);
      expect(ring.write(['w'.repeat(10)])).toBe(-1); // 60 of 64 bytes wait for the reader
      expect(await counted(ring, 5)).toBe(fingerprint('z'.repeat(30)));
      ring.release(6);
      expect(ring.write(['q'.repeat(40)])).toBe(6);
      expect(await counted(ring, 6)).toBe(fingerprint('q'.repeat(40)));
      expect(ring.write(['r'.repeat(65)])).toBe(-1); // larger than the ring: never
    } finally {
      ring.close();
      await reading;
    }
  });

  it('wakes a reader that fell asleep after a quiet spell when the next text comes', async () => {
    const { ring, reading } = smallRing();
    try {
      const first = ring.write(['before the quiet']);
      expect(await counted(ring, first)).toBe(fingerprint('before the quiet'));
      // Waits for the state (the reader asleep), not for a duration.
      while (!ring.readerSleeps) await new Promise((resolve) => setTimeout(resolve, 5));
      const next = ring.write(['after the quiet']);
      // Not through waitCounted, which wakes the reader itself: only the write's wake can count it.
      const value = await new Promise<number | undefined>((resolve) => {
        const look = () => (ring.countOf(next) !== undefined ? resolve(ring.countOf(next)) : setTimeout(look, 5));
        look();
      });
      expect(value).toBe(fingerprint('after the quiet'));
    } finally {
      ring.close();
      await reading;
    }
  });
});

function settledCall(n: number, text: string): QueuedToolCall {
  return {
    id: `call-${n}`,
    workspace_id: 'w',
    server_id: 's',
    session_id: 'no-session',
    jsonrpc_id: String(n),
    tool_name: 'search',
    arguments: { query: `query ${n}` },
    result: { content: [{ type: 'text', text }] },
    status: 'ok',
    started_at: new Date().toISOString(),
    ended_at: new Date().toISOString(),
  } as QueuedToolCall;
}

describe('token counts through the ring of the tokenizer thread', () => {
  it('needs no timer and no message for a call that settles: the write finds its counts', async () => {
    expect(TokenizerThread.shared()?.ring).toBeTruthy();
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'performance'] });
    try {
      const rollup = new TrafficRollup();
      const calls = Array.from({ length: 300 }, (_, n) => settledCall(n, `row ${n}: ${'revenue up '.repeat(n % 7)}`));
      for (const call of calls) rollup.add(call);
      // A post in groups would have set its timer (POST_MS) by now.
      expect(jest.getTimerCount()).toBe(0);
      jest.useRealTimers();
      await rollup.ready(10_000);
      for (const call of calls) expect(call.result_tokens).toBe(resultTokens({ ...call, result_tokens: undefined }));
    } finally {
      jest.useRealTimers();
    }
  });

  it('counts a text too large for the ring through a message, the same as the write would', async () => {
    // No space or line break to sample at: counted whole, and larger than the ring takes.
    const text = 'ab0'.repeat(Math.ceil(MAX_TEXT_BYTES / 3) + 10);
    const rollup = new TrafficRollup();
    const call = settledCall(1, text);
    rollup.add(call);
    await rollup.ready(60_000);
    expect(call.result_tokens).toBe(resultTokens({ ...call, result_tokens: undefined }));
    expect(call.result_tokens).toBeGreaterThan(countTokens(text) * 0.99);
  });
});
