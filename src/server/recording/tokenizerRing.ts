// The texts a call's token counts come from, handed to the tokenizer thread through shared memory
// rather than messages (docs/analytics.md "Where it runs"). A post and its answer cost the posting
// thread — the proxy's — 50–60 µs of CPU each, mostly waking the other thread (docs/benchmarks.md,
// issue 39), ~500 times a second under load. Here the proxy's thread copies a call's texts into a
// ring of bytes and moves on: no message, no timer, no answer. The tokenizer thread looks at the
// ring every POLL_MS while texts come, and sleeps once none came for IDLE_MS, when the next text
// wakes it (the only wake the proxy's thread pays). The counts go back into the shared memory, and
// the write that takes the calls reads them (CallTokenCounts.ready), waiting only when they are not
// there yet. A text the ring cannot hold now (larger than MAX_TEXT_BYTES, or the ring full) is
// posted as before.

/** Where things are in the shared memory: both threads take the same numbers from `ringLayout`. */
export interface RingLayout {
  /** Texts written (a wrapping 32-bit sequence), texts counted, whether the reader sleeps, whether it is to stop. */
  control: { byteOffset: number; ints: number };
  /** Which int of `control` holds what (the reader's source has no names of this file's). */
  at: { written: number; counted: number; sleeping: number; closed: number };
  /** Per slot: the text's first byte and its length in the data ring. */
  spans: { byteOffset: number; ints: number };
  /** Per slot: the text's count (-1: the thread could not count it). */
  counts: { byteOffset: number; ints: number };
  data: { byteOffset: number; bytes: number };
  slots: number;
  pollMs: number;
  idleMs: number;
}

const AT = { written: 0, counted: 1, sleeping: 2, closed: 3 };
const { written: WRITTEN, counted: COUNTED, sleeping: SLEEPING, closed: CLOSED } = AT;

/** Texts in the ring at once (a power of two: a slot is the sequence's low bits). */
const SLOTS = 8192;
const DATA_BYTES = 4 * 1024 * 1024;
/** A text past this travels as a message: it would hold a large share of the ring. */
export const MAX_TEXT_BYTES = 256 * 1024;
const POLL_MS = 2;
const IDLE_MS = 50;

/** The ring's shape; smaller ones for the tests (`slots` a power of two). */
export function ringLayout({ slots = SLOTS, dataBytes = DATA_BYTES } = {}): RingLayout {
  const control = { byteOffset: 0, ints: 4 };
  const spans = { byteOffset: 16, ints: slots * 2 };
  const counts = { byteOffset: spans.byteOffset + spans.ints * 4, ints: slots };
  const data = { byteOffset: counts.byteOffset + counts.ints * 4, bytes: dataBytes };
  return { control, at: AT, spans, counts, data, slots, pollMs: POLL_MS, idleMs: IDLE_MS };
}

export const ringBytes = (layout: RingLayout): number => layout.data.byteOffset + layout.data.bytes;

/** Sequence numbers wrap at 2^32: compared by their difference. */
const after = (a: number, b: number): boolean => ((a - b) | 0) > 0;

/** The proxy's side: writes texts, reads their counts. One writer (this thread), one reader. */
export class TextRing {
  private readonly control: Int32Array;
  private readonly spans: Int32Array;
  private readonly counts: Int32Array;
  private readonly data: Buffer;
  private readonly mask: number;
  /** The next sequence number to write. */
  private written = 0;
  /** Slots before this one are free again: their counts were read (`release`). */
  private released = 0;
  /** Where the next text's bytes go. */
  private head = 0;

  constructor(
    readonly memory: SharedArrayBuffer,
    readonly layout: RingLayout,
  ) {
    this.control = new Int32Array(memory, layout.control.byteOffset, layout.control.ints);
    this.spans = new Int32Array(memory, layout.spans.byteOffset, layout.spans.ints);
    this.counts = new Int32Array(memory, layout.counts.byteOffset, layout.counts.ints);
    this.data = Buffer.from(memory, layout.data.byteOffset, layout.data.bytes);
    this.mask = layout.slots - 1;
  }

  /**
   * Writes all the texts or none: the sequence number of the first (the others follow it), or -1
   * when they do not fit now.
   */
  write(texts: readonly string[]): number {
    if (texts.length === 0) return this.written;
    if (((this.written - this.released) | 0) + texts.length > this.layout.slots) return -1;
    const lengths = texts.map((text) => Buffer.byteLength(text));
    const starts = this.place(lengths);
    if (!starts) return -1;
    const first = this.written;
    for (let i = 0; i < texts.length; i++) {
      const slot = (this.written & this.mask) * 2;
      if (lengths[i] > 0) this.data.write(texts[i], starts[i], lengths[i], 'utf8');
      this.spans[slot] = starts[i];
      this.spans[slot + 1] = lengths[i];
      this.written = (this.written + 1) | 0;
    }
    this.head = starts[texts.length - 1] + lengths[texts.length - 1];
    // Published after the bytes and spans: the reader reads nothing past this number.
    Atomics.store(this.control, WRITTEN, this.written);
    if (Atomics.load(this.control, SLEEPING) === 1) Atomics.notify(this.control, WRITTEN);
    return first;
  }

  /**
   * Where each text starts, or null when the bytes not yet counted leave no room. The bytes in use
   * run from the oldest text not counted (the tail) to the head, around the end when the head has
   * wrapped to the start; a text is never split, and the head never reaches the tail from behind.
   */
  private place(lengths: readonly number[]): number[] | null {
    const size = this.layout.data.bytes;
    const counted = Atomics.load(this.control, COUNTED);
    const empty = counted === this.written;
    if (empty) this.head = 0;
    const tail = empty ? 0 : this.spans[(counted & this.mask) * 2];
    let head = this.head;
    let wrapped = !empty && head < tail;
    const starts: number[] = [];
    for (const length of lengths) {
      if (length > MAX_TEXT_BYTES) return null;
      if (!wrapped && head + length > size) {
        if (empty) return null;
        head = 0;
        wrapped = true;
      }
      if (wrapped && head + length >= tail) return null;
      starts.push(head);
      head += length;
    }
    return starts;
  }

  /** The count of text `seq`; undefined while it is not counted, -1 when the thread could not count it. */
  countOf(seq: number): number | undefined {
    return after(Atomics.load(this.control, COUNTED), seq) ? this.counts[seq & this.mask] : undefined;
  }

  /** The texts before `seq` were read: their slots may be written again. */
  release(seq: number): void {
    if (after(seq, this.released)) this.released = seq;
  }

  /** Whether every text before `seq` is counted. */
  countedBefore(seq: number): boolean {
    return !after(seq, Atomics.load(this.control, COUNTED));
  }

  /** Whether the reader sleeps until the next text (it came to no text for IDLE_MS). */
  get readerSleeps(): boolean {
    return Atomics.load(this.control, SLEEPING) === 1;
  }

  /** Stops the reader (it stops at its next look). */
  close(): void {
    Atomics.store(this.control, CLOSED, 1);
    Atomics.notify(this.control, WRITTEN);
  }

  /** Resolves when the texts before `seq` are counted, or after `maxWaitMs`; wakes the reader first. */
  async waitCounted(seq: number, maxWaitMs: number): Promise<void> {
    const deadline = performance.now() + maxWaitMs;
    Atomics.notify(this.control, WRITTEN);
    while (!this.countedBefore(seq)) {
      const left = deadline - performance.now();
      if (left <= 0) return;
      const counted = Atomics.load(this.control, COUNTED);
      const wait = Atomics.waitAsync(this.control, COUNTED, counted, left);
      if (!wait.async) continue;
      // A wait alone does not keep the event loop alive; a timer does, for as long as it may last.
      const keepAlive = setTimeout(() => undefined, left);
      await wait.value;
      clearTimeout(keepAlive);
    }
  }
}

/**
 * The tokenizer thread's side, run from its source text (tokenizerThread.ts): self-contained, no
 * import, no outer name. Counts each text written, in order, and publishes how many are counted;
 * resolves when the ring is closed.
 */
export function readRing(
  memory: SharedArrayBuffer,
  layout: RingLayout,
  count: (text: string) => number,
): Promise<void> {
  const control = new Int32Array(memory, layout.control.byteOffset, layout.control.ints);
  const spans = new Int32Array(memory, layout.spans.byteOffset, layout.spans.ints);
  const counts = new Int32Array(memory, layout.counts.byteOffset, layout.counts.ints);
  const data = Buffer.from(memory, layout.data.byteOffset, layout.data.bytes);
  const mask = layout.slots - 1;
  const at = layout.at;
  let counted = 0;
  let lastText = performance.now();
  const next = async (): Promise<void> => {
    while (Atomics.load(control, at.closed) === 0) {
      const written = Atomics.load(control, at.written);
      if (written !== counted) {
        while (counted !== written) {
          const slot = counted & mask;
          const start = spans[slot * 2];
          const length = spans[slot * 2 + 1];
          let tokens = -1;
          try {
            tokens = length === 0 ? 0 : count(data.toString('utf8', start, start + length));
          } catch {
            tokens = -1;
          }
          counts[slot] = tokens;
          counted = (counted + 1) | 0;
        }
        Atomics.store(control, at.counted, counted);
        Atomics.notify(control, at.counted);
        lastText = performance.now();
        continue;
      }
      if (performance.now() - lastText < layout.idleMs) {
        await Atomics.waitAsync(control, at.written, counted, layout.pollMs).value;
        continue;
      }
      // Asleep until a text comes: the writer wakes a sleeping reader (TextRing.write). Said before
      // the last look, so a text written in between is either seen here or followed by a wake.
      Atomics.store(control, at.sleeping, 1);
      if (Atomics.load(control, at.written) === counted && Atomics.load(control, at.closed) === 0)
        await Atomics.waitAsync(control, at.written, counted).value;
      Atomics.store(control, at.sleeping, 0);
      lastText = performance.now();
    }
  };
  return next();
}
