import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { RedactionSettingsInput } from '../../../contract/redaction';
import type { JsonRpcMessage } from '../../proxy/jsonRpc';
import type { Redactor } from './redactor';

// Large messages are redacted on a thread of their own (docs/security.md "Cost"): the redactor is
// linear in its input, but 4 MiB of near-matches still costs it ~100 ms, and on the proxy's event
// loop that is 100 ms during which no other agent's call moves. Small messages — nearly all of
// them — stay on the recorder's thread: a hop (post, clone, answer, a turn of the loop) costs more
// than their redaction. The recorder (messageRecording.ts) keeps a session's messages in order
// while one of them is here, and falls back to redacting on its own thread whenever this cannot
// answer: nothing is ever stored unredacted, and nothing is lost.

/** What a job of the thread carries: its workspace's rules (as settings) and key, and the message or its exact JSON text. */
export interface ThreadJob {
  id: number;
  settings: RedactionSettingsInput;
  hashKey: Uint8Array;
  message?: JsonRpcMessage;
  text?: string;
  tool?: string;
}

/** The thread's answer: nothing found, the redacted message with its JSON text, or a failure. */
export type ThreadAnswer =
  | { id: number; changed: false }
  | { id: number; changed: true; message: JsonRpcMessage; text: string }
  | { id: number; failed: string };

/** A message redacted off the recorder's thread: unchanged, or its stored form and that form's JSON text. */
export type Redacted = { changed: false } | { changed: true; message: JsonRpcMessage; text: string };

/** Where the recorder sends large messages to be redacted (the thread below; tests wrap it). */
export interface OffThreadRedaction {
  /** Messages of at least this many bytes are redacted there. */
  readonly minBytes: number;
  /** The message redacted by the redactor's rules; null when the thread cannot (the caller redacts it itself). */
  redact(
    redactor: Redactor,
    message: JsonRpcMessage,
    text: string | undefined,
    tool: string | undefined,
  ): Promise<Redacted | null>;
}

/**
 * From `node scripts/bench-redaction.mjs` (docs/benchmarks.md "Redaction"): the hop is not free
 * for the event loop — the message's text is cloned to the thread, and cloning a string with
 * characters past Latin-1 costs about as much per KB as redacting it (64 KiB pairs: 11.5 ms of
 * the loop per pair on the thread, 3.9 ms inline, loaded machine). So only messages whose inline
 * redaction would hold the loop for milliseconds go: from 256 KiB (~2–3 ms inline), where a 4 MiB
 * one held it 56 ms inline and 5 ms this way.
 */
export const DEFAULT_MIN_BYTES = 256 * 1024;
/** A job not answered by then: the thread is taken to be stuck, ended, and its jobs redacted inline. */
const DEFAULT_TIMEOUT_MS = 30_000;
/** After this many failed threads, every message is redacted inline (a thread that keeps dying is not restarted forever). */
const MAX_FAILURES = 3;

// From the compiled build the thread runs redactionWorker.js; from TypeScript sources (Jest) it
// loads redactionWorker.ts through ts-node, compiled on the fly as the tests' own code is.
const TS_WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
require(workerData.tsNode).register({
  transpileOnly: true,
  skipProject: true,
  compilerOptions: {
    module: 'commonjs',
    moduleResolution: 'bundler',
    target: 'es2022',
    esModuleInterop: true,
    resolveJsonModule: true,
  },
});
require(workerData.file);
`;

/** What the recorder gets of an answer: null when the thread failed at it (the recorder redacts it itself). */
function redactedOf(answer: ThreadAnswer): Redacted | null {
  if ('failed' in answer) return null;
  return answer.changed ? { changed: true, message: answer.message, text: answer.text } : { changed: false };
}

interface Waiting {
  resolve: (answer: Redacted | null) => void;
  timer: NodeJS.Timeout;
}

export class RedactionThread implements OffThreadRedaction {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private failures = 0;
  private closed = false;

  private readonly timeoutMs: number;
  private readonly workerFile: string;

  /**
   * `options.workerFile`: the thread's code (default redactionWorker next to this file; tests give
   * one that dies); `options.timeoutMs`: how long a job may take before the thread is replaced.
   */
  constructor(
    readonly minBytes = DEFAULT_MIN_BYTES,
    private readonly onFailure: (error: unknown) => void = () => undefined,
    options: { timeoutMs?: number; workerFile?: string } = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.workerFile = options.workerFile ?? path.join(__dirname, `redactionWorker${path.extname(__filename)}`);
  }

  redact(
    redactor: Redactor,
    message: JsonRpcMessage,
    text: string | undefined,
    tool: string | undefined,
  ): Promise<Redacted | null> {
    const worker = this.running();
    if (!worker) return Promise.resolve(null);
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.onFailure(new Error(`the redaction thread did not answer within ${this.timeoutMs} ms`));
        void worker.terminate();
      }, this.timeoutMs);
      timer.unref();
      this.waiting.set(id, { resolve, timer });
      // The thread keeps the process alive only while it owes an answer.
      if (this.waiting.size === 1) worker.ref();
      // The exact text when there is one: a string is cloned in one copy, an object piece by piece.
      const job: ThreadJob = {
        id,
        settings: redactor.rules.settings,
        hashKey: redactor.hashKey,
        ...(tool === undefined ? {} : { tool }),
        ...(text === undefined ? { message } : { text }),
      };
      try {
        worker.postMessage(job);
      } catch (error) {
        this.onFailure(error);
        this.settle(id, null);
      }
    });
  }

  /** Ends the thread; what it still owes is redacted inline by the recorder. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.settleAll();
    await worker?.terminate();
  }

  /** The thread, started on first use (again after a failure, up to MAX_FAILURES); undefined when there is none. */
  private running(): Worker | undefined {
    if (this.worker || this.closed || this.failures >= MAX_FAILURES) return this.worker;
    try {
      const file = this.workerFile;
      const worker = file.endsWith('.ts')
        ? new Worker(TS_WORKER_SOURCE, {
            eval: true,
            workerData: { file, tsNode: createRequire(__filename).resolve('ts-node') },
          })
        : new Worker(file);
      worker.on('message', (answer: ThreadAnswer) => this.settle(answer.id, redactedOf(answer)));
      const failed = (error: unknown) => {
        if (this.worker !== worker) return;
        this.worker = undefined;
        this.failures++;
        this.onFailure(error);
        this.settleAll();
      };
      worker.on('error', failed);
      worker.on('exit', (code) => failed(new Error(`the redaction thread exited (${code})`)));
      worker.unref();
      this.worker = worker;
    } catch (error) {
      this.failures++;
      this.onFailure(error);
    }
    return this.worker;
  }

  private settle(id: number, answer: Redacted | null): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    this.waiting.delete(id);
    clearTimeout(waiting.timer);
    waiting.resolve(answer);
    if (this.waiting.size === 0) this.worker?.unref();
  }

  private settleAll(): void {
    for (const id of [...this.waiting.keys()]) this.settle(id, null);
  }
}
