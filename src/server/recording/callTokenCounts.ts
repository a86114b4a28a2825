import type { QueuedToolCall } from './rows';
import { argumentText, resultCountedText, sampleForCounting, scaleTokens, type CountedText } from './tokenCounter';
import { resultImageTokens } from './imageTokens';
import type { TokenizerThread } from './tokenizerThread';

// The calls of a rollup whose token counts the tokenizer thread (tokenizerThread.ts) is to count.

/**
 * A rollup's calls on their way to the thread: each call's texts are written to the shared ring
 * when it settles (tokenizerRing.ts), or, when the ring cannot take them, posted together with
 * others (see add). Each call's counts are set when they are back — unless the write took the call
 * and counted it itself meanwhile (`??=`: a call's counts, once set, never change).
 */
const POST_MS = 2;
const POST_CALLS = 256;
/** Rounds a write waits for at most (see ready). */
const READY_ROUNDS = 4;

/** A call whose texts are in the ring: its two texts are `first` and the one after. */
interface RingEntry {
  /** null: dropped (clear); its slots are freed when counted all the same. */
  call: QueuedToolCall | null;
  first: number;
  args: CountedText;
  result: CountedText;
  argsScale: number;
  resultScale: number;
}

export class CallTokenCounts {
  private toCount: QueuedToolCall[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Calls whose texts are in the ring, in the order they were written. */
  private inRing: RingEntry[] = [];

  constructor(private readonly thread: TokenizerThread | null) {}

  add(call: QueuedToolCall): void {
    if (!this.thread || (call.argument_tokens != null && call.result_tokens != null)) return;
    if (this.write(call)) return;
    const queued = this.toCount.push(call);
    // Calls the ring cannot take are posted in groups, every POST_MS or POST_CALLS calls, not one
    // message per call: a post costs this thread ~3 µs plus ~0.5 µs a call (the clone of its texts),
    // and its answer a turn of the event loop. POST_MS is short because the write waits for the
    // counts of the calls posted last (ready). At most 500 posts a second whatever the traffic.
    if (queued === 1) this.timer = setTimeout(() => this.post(), POST_MS);
    else if (queued >= POST_CALLS) this.post();
  }

  /** Resolves when the calls added so far are counted, or after `maxWaitMs`. */
  async ready(maxWaitMs: number): Promise<void> {
    // Calls settled while the thread counted are waited for in turn, a few rounds: the write takes
    // every call added so far, and one whose counts are not back is counted on the recorder's
    // thread — the proxy's (~55 µs a call: docs/benchmarks.md, issue 39). Bounded in rounds and
    // time: under steady traffic a call or two settles during every round.
    const deadline = performance.now() + maxWaitMs;
    let rounds = 0;
    do {
      this.post();
      const ring = this.thread?.ring;
      const last = this.inRing.at(-1);
      if (ring && last && this.thread.alive) await ring.waitCounted((last.first + 2) | 0, deadline - performance.now());
      await this.thread?.idle(Math.max(0, deadline - performance.now()));
      this.readCounts();
    } while (
      (this.toCount.length > 0 || this.inRing.length > 0) &&
      this.thread?.alive &&
      ++rounds < READY_ROUNDS &&
      performance.now() < deadline
    );
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.toCount = [];
    for (const entry of this.inRing) entry.call = null;
  }

  /** Writes the call's texts to the ring; false when it cannot take them now. */
  private write(call: QueuedToolCall): boolean {
    const ring = this.thread?.ring;
    if (!ring || !this.thread.alive) return false;
    const args = argumentText(call);
    const result = resultCountedText(call);
    const argsSample = sampleForCounting(args.text);
    const resultSample = sampleForCounting(result.text);
    const texts = [argsSample.text, resultSample.text];
    let first = ring.write(texts);
    if (first === -1 && this.inRing.length > 0) {
      // Slots whose counts were not read yet are freed by reading them.
      this.readCounts();
      first = ring.write(texts);
    }
    if (first === -1) return false;
    this.inRing.push({ call, first, args, result, argsScale: argsSample.scale, resultScale: resultSample.scale });
    return true;
  }

  /** Sets the counts that are back, in the order written, and frees their slots. */
  private readCounts(): void {
    const ring = this.thread?.ring;
    if (!ring) return;
    if (!this.thread.alive) {
      // Never to be counted there: the write counts them (take).
      this.inRing = [];
      return;
    }
    let read = 0;
    for (const entry of this.inRing) {
      const args = ring.countOf(entry.first);
      const result = ring.countOf((entry.first + 1) | 0);
      if (args === undefined || result === undefined) break;
      if (entry.call) setCounts(entry.call, args, entry.argsScale, entry.args, result, entry.resultScale, entry.result);
      ring.release((entry.first + 2) | 0);
      read++;
    }
    if (read > 0) this.inRing.splice(0, read);
  }

  private post(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const calls = this.toCount;
    if (calls.length === 0 || !this.thread) return;
    this.toCount = [];
    const texts = calls.map((call) => [argumentText(call), resultCountedText(call)] as const);
    // A long text travels as its sample (sampleForCounting), its count scaled back here.
    const samples = texts.flatMap(([args, result]) => [sampleForCounting(args.text), sampleForCounting(result.text)]);
    void this.thread.count(samples.map((sample) => sample.text)).then((counts) => {
      if (!counts) return;
      calls.forEach((call, i) =>
        setCounts(
          call,
          counts[2 * i],
          samples[2 * i].scale,
          texts[i][0],
          counts[2 * i + 1],
          samples[2 * i + 1].scale,
          texts[i][1],
        ),
      );
    });
  }
}

/** A call's counts from the thread's counts of its texts (samples scaled back); -1: left to the write. */
function setCounts(
  call: QueuedToolCall,
  argsCount: number,
  argsScale: number,
  args: CountedText,
  resultCount: number,
  resultScale: number,
  result: CountedText,
): void {
  const sampled = (count: number, scale: number) => (scale === 1 ? count : Math.round(count * scale));
  if (argsCount >= 0) call.argument_tokens ??= scaleTokens(sampled(argsCount, argsScale), args);
  if (resultCount >= 0)
    call.result_tokens ??= scaleTokens(sampled(resultCount, resultScale), result) + resultImageTokens(call.result);
}
