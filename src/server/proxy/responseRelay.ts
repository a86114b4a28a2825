import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { parseMessages, type JsonRpcMessage } from './jsonRpc';
import type { MessageTap } from './messageTap';
import { SseEventTooLargeError, SseParser, serializeSseEvent, type SseEvent } from './sseParser';
import { errorResponse, type UpstreamFailure } from './upstreamErrors';

// Sends an upstream body on to the agent as it arrives, tapping each JSON-RPC message on the
// way. Only a tools/list answer that the monitor may rewrite is handled whole (JSON) or event by
// event (SSE); everything else is written chunk by chunk as it comes.

function write(res: ServerResponse, data: Buffer | string): Promise<void> | undefined {
  if (res.destroyed) return undefined;
  if (res.write(data)) return undefined;
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Reads `body` to its end, chunk by chunk; while the promise `onChunk` returns is pending (the
 * agent's socket is full) the body is paused. Rejects with what `onChunk` throws (the body is
 * destroyed then), the body's error, or a premature close. Events, not `for await`: an async
 * iterator and a promise per chunk were ~1.5 KiB of garbage on every proxied answer.
 */
function readThrough(body: Readable, onChunk: (chunk: Buffer) => Promise<void> | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', settle);
      body.off('close', onClose);
      if (error === undefined) resolve();
      else reject(error instanceof Error ? error : new Error('The answer could not be read'));
    };
    const onData = (chunk: Buffer) => {
      let waiting: Promise<void> | undefined;
      try {
        waiting = onChunk(chunk);
      } catch (error) {
        settle(error);
        body.destroy();
        return;
      }
      if (waiting) {
        body.pause();
        void waiting.then(() => {
          if (!settled) body.resume();
        });
      }
    };
    const onEnd = () => settle();
    const onClose = () => settle(new Error('The upstream closed the answer before its end'));
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', settle);
    body.once('close', onClose);
  });
}

// A JSON answer nobody observes (MessageTap.answersObserved) is parsed only when it may hold a
// list_changed notification: its text names one, or has a \u escape that could spell one.
const LIST_CHANGED_BYTES = Buffer.from('list_changed');
const UNICODE_ESCAPE_BYTES = Buffer.from('\\u');

/**
 * JSON body: streamed through; parsed and recorded once complete. Returns its messages (none when
 * it broke), or null when it was not parsed: the tap observes no answer of this exchange, so
 * what the answer holds changes nothing but the agent's copy, and decoding and parsing it was
 * ~2.5 KiB of garbage per proxied call with recording off.
 */
export async function relayJson(
  body: Readable,
  res: ServerResponse,
  tap: MessageTap,
  limitBytes: number,
  onFailure: (error: unknown) => UpstreamFailure,
  proxyAnswers: JsonRpcMessage[] = [],
): Promise<JsonRpcMessage[] | null> {
  // Most answers arrive in one chunk: a list only for the others.
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let size = 0;
  // The proxy's answers to refused batch items are merged in, so the upstream's answer is read whole.
  const whole = tap.rewritesToolsList || proxyAnswers.length > 0;
  try {
    await readThrough(body, (chunk) => {
      size += chunk.length;
      if (size > limitBytes) throw onFailureTooLarge(limitBytes);
      if (first === undefined) first = chunk;
      else (chunks ??= [first]).push(chunk);
      return whole ? undefined : write(res, chunk);
    });
  } catch (error) {
    const failure = onFailure(error);
    for (const id of tap.unanswered()) tap.fromServer(errorResponse(id, failure), 0);
    res.destroy();
    return [];
  }
  // Streamed through: the answer is ended (and its last bytes flushed: end() uncorks the socket)
  // before it is parsed and recorded, so the recorder's work is not on the agent's wait. The
  // request's record is already in the journal's file (recordRequestSide, before the headers).
  if (!whole) res.end();
  // One chunk is read where it lies rather than copied into a new buffer first.
  const bytes = chunks ? Buffer.concat(chunks, size) : (first ?? Buffer.alloc(0));
  if (!whole && !tap.answersObserved && !bytes.includes(LIST_CHANGED_BYTES) && !bytes.includes(UNICODE_ESCAPE_BYTES))
    return null;
  const text = bytes.toString('utf8');
  const messages = parseMessages(text);
  const single = messages.length === 1 && !text.trimStart().startsWith('[');
  const outgoing = messages.map((m) =>
    tap.fromServer(m, single ? size : Buffer.byteLength(JSON.stringify(m)), single ? text : undefined),
  );
  if (proxyAnswers.length > 0) res.end(JSON.stringify([...outgoing, ...proxyAnswers]));
  else if (whole) {
    const changed = outgoing.some((m, i) => m !== messages[i]);
    res.end(changed ? JSON.stringify(single ? outgoing[0] : outgoing) : text);
  }
  return messages;
}

class TooLarge extends Error {}
function onFailureTooLarge(limit: number): Error {
  return new TooLarge(`The response is larger than ${limit} bytes`);
}
// An SSE event past the limit is the same failure as a JSON body past it: -32013, not -32010.
export const isTooLarge = (error: unknown): boolean =>
  error instanceof TooLarge || error instanceof SseEventTooLargeError;

export interface SseRelayOptions {
  maxEventBytes: number;
  onFailure: (error: unknown) => UpstreamFailure;
  rewriteEvent?: (event: SseEvent) => SseEvent | null;
  /** The proxy's answers to refused batch items: sent first, each its own event. */
  proxyAnswers?: JsonRpcMessage[];
  /** A comment line is sent after this long without a write (between events only), so idle connections are not cut by intermediaries; 0 = never. */
  keepAliveMs?: number;
  /** The stream is ended cleanly after this long without anything from the upstream; 0 = never. */
  idleMs?: number;
}

/**
 * SSE body: each chunk is written on at once; the parser follows along to tap the events. When
 * the stream breaks, requests of this exchange still unanswered get a JSON-RPC error event.
 */
export async function relaySse(
  body: Readable,
  res: ServerResponse,
  tap: MessageTap,
  options: SseRelayOptions,
): Promise<void> {
  const { rewriteEvent, proxyAnswers = [], keepAliveMs = 0, idleMs = 0 } = options;
  if (proxyAnswers.length > 0)
    await write(
      res,
      proxyAnswers.map((m) => serializeSseEvent({ event: 'message', data: JSON.stringify(m) })).join(''),
    );
  const eventwise = tap.rewritesToolsList || rewriteEvent !== undefined;
  let pendingOut: string[] = [];
  const parser = new SseParser((event) => {
    let out: SseEvent | null = event;
    if (event.event === 'message' && event.data) {
      const messages = parseMessages(event.data);
      const single = messages.length === 1;
      const sent = messages.map((m) =>
        tap.fromServer(
          m,
          single ? Buffer.byteLength(event.data) : Buffer.byteLength(JSON.stringify(m)),
          single ? event.data : undefined,
        ),
      );
      if (sent.some((m, i) => m !== messages[i])) out = { ...event, data: JSON.stringify(single ? sent[0] : sent) };
    }
    if (rewriteEvent) out = rewriteEvent(out);
    if (eventwise && out) pendingOut.push(serializeSseEvent(out));
  }, options.maxEventBytes);
  // The last byte written on: whether a broken event left its line open (see endBrokenEvent).
  let lastByte = 0x0a;
  let lastUpstreamMs = Date.now();
  let lastWriteMs = lastUpstreamMs;
  // Set by tick(), which runs on a timer while the loop below awaits.
  let idled = false as boolean;
  const timer =
    keepAliveMs > 0 || idleMs > 0
      ? setInterval(tick, Math.max(10, Math.min(keepAliveMs || idleMs, idleMs || keepAliveMs) / 2))
      : undefined;
  timer?.unref();
  function tick(): void {
    const now = Date.now();
    if (idleMs > 0 && now - lastUpstreamMs >= idleMs) {
      idled = true;
      body.destroy();
      return;
    }
    // Never inside an event: a blank line there would dispatch the upstream's half event.
    if (
      keepAliveMs > 0 &&
      now - lastWriteMs >= keepAliveMs &&
      !parser.midEvent &&
      !res.destroyed &&
      res.writableLength === 0
    ) {
      lastWriteMs = now;
      res.write(': keep-alive\n\n');
    }
  }
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      lastUpstreamMs = lastWriteMs = Date.now();
      parser.push(chunk);
      if (!eventwise) {
        if (chunk.length > 0) lastByte = chunk[chunk.length - 1];
        await write(res, chunk);
      } else if (pendingOut.length > 0) {
        const text = pendingOut.join('');
        pendingOut = [];
        await write(res, text);
      }
    }
  } catch (error) {
    if (res.destroyed) return;
    const ending = !eventwise && parser.midEvent ? endBrokenEvent(lastByte) : '';
    if (idled) {
      // A quiet stream ends like any stream the server closes: the client opens a new one when it wants.
      res.end(ending);
      return;
    }
    const failure = options.onFailure(error);
    const errors: JsonRpcMessage[] = tap.unanswered().map((id) => errorResponse(id, failure));
    for (const message of errors) tap.fromServer(message, 0);
    res.end(ending + errors.map((m) => serializeSseEvent({ event: 'message', data: JSON.stringify(m) })).join(''));
    return;
  } finally {
    if (timer) clearInterval(timer);
  }
  res.end();
}

/**
 * The upstream died inside an event whose first bytes are already with the agent. SSE cannot take
 * them back, but it can make the event harmless: the open line is ended, and the event is given a
 * type of its own before the blank line dispatches it, so clients listening for `message` events
 * (every MCP client) skip it instead of parsing a half message — and the error that follows is an
 * event of its own rather than text glued onto the broken line.
 */
export function endBrokenEvent(lastByte: number): string {
  const lineOpen = lastByte !== 0x0a && lastByte !== 0x0d;
  return `${lineOpen ? '\n' : ''}event: toolscope-incomplete\n\n`;
}

const RAW_HEAD_BYTES = 1024;

/** Everything else (202 Accepted, 4xx text): passed through untouched. Returns the body's first KiB as text. */
export async function relayRaw(body: Readable, res: ServerResponse, limitBytes: number): Promise<string> {
  let size = 0;
  const head: Buffer[] = [];
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (size < RAW_HEAD_BYTES) head.push(chunk.subarray(0, RAW_HEAD_BYTES - size));
      size += chunk.length;
      if (size > limitBytes) throw onFailureTooLarge(limitBytes);
      await write(res, chunk);
    }
    res.end();
  } catch {
    res.destroy();
  }
  return Buffer.concat(head).toString('utf8');
}
