import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { parseMessages, type JsonRpcMessage } from './jsonRpc';
import type { MessageTap } from './messageTap';
import { SseParser, serializeSseEvent, type SseEvent } from './sseParser';
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

/** JSON body: streamed through; parsed and recorded once complete. */
export async function relayJson(body: Readable, res: ServerResponse, tap: MessageTap, limitBytes: number, onFailure: (error: unknown) => UpstreamFailure): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  const whole = tap.rewritesToolsList;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limitBytes) throw onFailureTooLarge(limitBytes);
      chunks.push(chunk);
      if (!whole) await write(res, chunk);
    }
  } catch (error) {
    const failure = onFailure(error);
    for (const id of tap.unanswered()) tap.record('server_to_client', errorResponse(id, failure), 0);
    res.destroy();
    return;
  }
  const text = Buffer.concat(chunks, size).toString('utf8');
  const messages = parseMessages(text);
  const single = messages.length === 1 && !text.trimStart().startsWith('[');
  const outgoing = messages.map((m) => tap.fromServer(m, single ? size : Buffer.byteLength(JSON.stringify(m)), single ? text : undefined));
  if (whole) {
    const changed = outgoing.some((m, i) => m !== messages[i]);
    res.end(changed ? JSON.stringify(single ? outgoing[0] : outgoing) : text);
  } else res.end();
}

class TooLarge extends Error {}
function onFailureTooLarge(limit: number): Error {
  return new TooLarge(`The response is larger than ${limit} bytes`);
}
export const isTooLarge = (error: unknown): boolean => error instanceof TooLarge;

/**
 * SSE body: each chunk is written on at once; the parser follows along to tap the events. When
 * the stream breaks, requests of this exchange still unanswered get a JSON-RPC error event.
 */
export async function relaySse(
  body: Readable,
  res: ServerResponse,
  tap: MessageTap,
  maxEventBytes: number,
  onFailure: (error: unknown) => UpstreamFailure,
  rewriteEvent?: (event: SseEvent) => SseEvent | null,
): Promise<void> {
  const eventwise = tap.rewritesToolsList || rewriteEvent !== undefined;
  let pendingOut: string[] = [];
  const parser = new SseParser((event) => {
    let out: SseEvent | null = event;
    if (event.event === 'message' && event.data) {
      const messages = parseMessages(event.data);
      const single = messages.length === 1;
      const sent = messages.map((m) => tap.fromServer(m, single ? Buffer.byteLength(event.data) : Buffer.byteLength(JSON.stringify(m)), single ? event.data : undefined));
      if (sent.some((m, i) => m !== messages[i])) out = { ...event, data: JSON.stringify(single ? sent[0] : sent) };
    }
    if (rewriteEvent && out) out = rewriteEvent(out);
    if (eventwise && out) pendingOut.push(serializeSseEvent(out));
  }, maxEventBytes);
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      parser.push(chunk);
      if (!eventwise) await write(res, chunk);
      else if (pendingOut.length > 0) {
        const text = pendingOut.join('');
        pendingOut = [];
        await write(res, text);
      }
    }
  } catch (error) {
    if (res.destroyed) return;
    const failure = onFailure(error);
    const errors: JsonRpcMessage[] = tap.unanswered().map((id) => errorResponse(id, failure));
    for (const message of errors) tap.fromServer(message, 0);
    res.end(errors.map((m) => serializeSseEvent({ event: 'message', data: JSON.stringify(m) })).join(''));
    return;
  }
  res.end();
}

/** Everything else (202 Accepted, 4xx text): passed through untouched. */
export async function relayRaw(body: Readable, res: ServerResponse, limitBytes: number): Promise<void> {
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limitBytes) throw onFailureTooLarge(limitBytes);
      await write(res, chunk);
    }
    res.end();
  } catch {
    res.destroy();
  }
}
