import { EventEmitter } from 'node:events';

// What stops an upstream request when the agent goes away. undici takes an EventEmitter that emits
// 'abort' as well as an AbortSignal; an AbortController builds an AbortSignal, an EventTarget with
// a Map of its own, on every proxied exchange (~1 KiB of garbage per call, docs/benchmarks.md),
// although almost none is ever aborted.
export class ExchangeAbort extends EventEmitter {
  aborted = false;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}
