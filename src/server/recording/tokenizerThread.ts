import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { QueuedToolCall } from './rows';
import { ASCII_SELF_CHECK, countAsciiTokens, newPieceCache } from './o200kAscii';
import { argumentText, resultCountedText, sampleForCounting, scaleTokens, type CountedText } from './tokenCounter';
import { resultImageTokens } from './imageTokens';
import { readRing, ringBytes, ringLayout, TextRing } from './tokenizerRing';

// Token counting off the recorder's thread (docs/analytics.md "Where it runs"). o200k_base costs
// ~0.25 µs a token on a quiet core (~55 µs for a call with an 820-character result, half what the
// recorder's write costs per call). A call's texts are posted to this thread when the call settles
// (one message per group of calls, see CallTokenCounts.add) and counted while the recorder waits
// for its flush timer or writes the batch before; the write that takes the call finds its counts
// there (TrafficRollup). Counts are those of the recorder's thread: the same tokenizer, the same
// texts (a long one's sample, sampleForCounting, posted in its place).

// ASCII texts are cut without the tokenizer's regex, as tokenCounter.ts cuts them: the scan's
// source (o200kAscii.ts, self-contained) is part of the thread's, checked against the tokenizer
// before use, as on the recorder's thread.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const tokenizer = require(workerData.tokenizerPath);
const { countTokens } = tokenizer;
// A special token's text counted as ordinary text, as tokenCounter.ts counts it (the default throws).
const asIs = { disallowedSpecial: new Set() };
const countAscii = (${countAsciiTokens.toString()});
const cache = (${newPieceCache.toString()})();
let pieces = tokenizer.default && tokenizer.default.bytePairEncodingCoreProcessor;
try {
  if (!pieces || !workerData.selfCheck.every((text) => { const n = countAscii(text, pieces, cache); return n === -1 || n === countTokens(text, asIs); })) pieces = null;
} catch {
  pieces = null;
}
function count(text) {
  if (text.length === 0) return 0;
  if (pieces) {
    const n = countAscii(text, pieces, cache);
    if (n >= 0) return n;
  }
  return countTokens(text, asIs);
}
// Texts written to the shared ring (tokenizerRing.ts) are counted as they come; messages carry the rest.
if (workerData.ring) (${readRing.toString()})(workerData.ring.memory, workerData.ring.layout, count);
parentPort.on('message', ({ id, texts }) => {
  // No texts: whether the thread uses the scan (for the tests).
  if (texts === null) return parentPort.postMessage({ id, counts: [pieces ? 1 : 0] });
  const counts = new Array(texts.length);
  for (let i = 0; i < texts.length; i++) counts[i] = count(texts[i]);
  parentPort.postMessage({ id, counts });
});
`;

type Waiter = (counts: number[] | null) => void;

export class TokenizerThread {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiter>();
  private idleWaiters: (() => void)[] = [];
  private failed = false;

  private constructor(
    private readonly worker: Worker,
    /** Where calls' texts go without a message (tokenizerRing.ts); null: messages only. */
    readonly ring: TextRing | null,
  ) {
    worker.on('message', ({ id, counts }: { id: number; counts: number[] }) => this.settle(id, counts));
    const fail = () => {
      this.failed = true;
      for (const id of [...this.waiting.keys()]) this.settle(id, null);
    };
    worker.on('error', fail);
    worker.on('exit', fail);
    worker.unref();
  }

  private static instance: TokenizerThread | null | undefined;

  /** The process's tokenizer thread, started on first use; null where no thread can be started. */
  static shared(): TokenizerThread | null {
    if (TokenizerThread.instance === undefined) {
      try {
        const tokenizerPath = createRequire(__filename).resolve('gpt-tokenizer/encoding/o200k_base');
        const layout = ringLayout();
        const ring = new TextRing(new SharedArrayBuffer(ringBytes(layout)), layout);
        TokenizerThread.instance = new TokenizerThread(
          new Worker(WORKER_SOURCE, {
            eval: true,
            workerData: { tokenizerPath, selfCheck: ASCII_SELF_CHECK, ring: { memory: ring.memory, layout } },
          }),
          ring,
        );
      } catch {
        TokenizerThread.instance = null;
      }
    }
    return TokenizerThread.instance?.failed ? null : TokenizerThread.instance;
  }

  /** Ends the shared thread; the next use starts another. For tests: each test file has modules of its own, so a thread of its own. */
  static async closeShared(): Promise<void> {
    const instance = TokenizerThread.instance;
    TokenizerThread.instance = undefined;
    if (instance) await instance.worker.terminate();
  }

  /** False once the thread failed: what it was given will not be counted there. */
  get alive(): boolean {
    return !this.failed;
  }

  /** Whether the thread counts ASCII texts without the tokenizer's regex (o200kAscii.ts); null when it failed. */
  async countsAsciiWithoutRegex(): Promise<boolean | null> {
    const answer = await this.count(null);
    return answer ? answer[0] === 1 : null;
  }

  /** Tokens of each text, in order; null when the thread failed (the caller counts them itself). */
  count(texts: string[] | null): Promise<number[] | null> {
    if (this.failed) return Promise.resolve(null);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      // The thread keeps the process alive only while it owes an answer.
      if (this.waiting.size === 1) this.worker.ref();
      this.worker.postMessage({ id, texts });
    });
  }

  /** Resolves when every text posted so far is counted, or after `maxWaitMs`. */
  idle(maxWaitMs: number): Promise<void> {
    if (this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.idleWaiters = this.idleWaiters.filter((waiter) => waiter !== done);
        resolve();
      };
      const timer = setTimeout(done, maxWaitMs);
      this.idleWaiters.push(done);
    });
  }

  private settle(id: number, counts: number[] | null): void {
    const waiter = this.waiting.get(id);
    if (!waiter) return;
    this.waiting.delete(id);
    waiter(counts);
    if (this.waiting.size > 0) return;
    this.worker.unref();
    for (const done of this.idleWaiters.splice(0)) done();
  }
}

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
