import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ASCII_SELF_CHECK, countAsciiTokens, newPieceCache } from './o200kAscii';
import { readRing, ringBytes, ringLayout, TextRing } from './tokenizerRing';

// Token counting off the recorder's thread (docs/analytics.md "Where it runs"). o200k_base costs
// ~0.25 µs a token on a quiet core (~55 µs for a call with an 820-character result, half what the
// recorder's write costs per call). A call's texts reach this thread when the call settles
// (through the shared ring of tokenizerRing.ts, or a message: callTokenCounts.ts) and are counted
// while the recorder waits for its flush timer or writes the batch before; the write that takes
// the call finds its counts there (TrafficRollup). Counts are those of the recorder's thread: the same tokenizer, the same
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
