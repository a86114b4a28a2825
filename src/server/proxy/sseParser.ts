import { StringDecoder } from 'node:string_decoder';

// An incremental parser of text/event-stream (WHATWG HTML §9.2): bytes in, whole events out,
// whatever the chunking. Events larger than `maxEventBytes` fail the stream instead of growing
// memory without bound.
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
  retry?: number;
}

export class SseEventTooLargeError extends Error {}

export class SseParser {
  private readonly decoder = new StringDecoder('utf8');
  private buffer = '';
  private dataLines: string[] = [];
  private eventName = '';
  private eventId: string | undefined;
  private retry: number | undefined;
  private eventBytes = 0;

  constructor(
    private readonly onEvent: (event: SseEvent) => void,
    private readonly maxEventBytes = Number.POSITIVE_INFINITY,
  ) {}

  push(chunk: Buffer): void {
    this.buffer += this.decoder.write(chunk);
    this.eventBytes += chunk.length;
    if (this.eventBytes > this.maxEventBytes)
      throw new SseEventTooLargeError(`An event is larger than ${this.maxEventBytes} bytes`);
    let start = 0;
    for (;;) {
      const lf = this.buffer.indexOf('\n', start);
      const cr = this.buffer.indexOf('\r', start);
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        // A lone CR at the very end may be the first half of CRLF: wait for more.
        if (cr === this.buffer.length - 1) break;
        end = cr;
        next = this.buffer[cr + 1] === '\n' ? cr + 2 : cr + 1;
      } else if (lf !== -1) {
        end = lf;
        next = lf + 1;
      } else break;
      this.line(this.buffer.slice(start, end));
      start = next;
    }
    this.buffer = this.buffer.slice(start);
  }

  /** True when the bytes pushed so far end inside an event (a line or fields not yet dispatched). */
  get midEvent(): boolean {
    return (
      this.buffer !== '' ||
      this.dataLines.length > 0 ||
      this.eventName !== '' ||
      this.eventId !== undefined ||
      this.retry !== undefined
    );
  }

  private line(line: string): void {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.dataLines.push(value);
    else if (field === 'event') this.eventName = value;
    else if (field === 'id' && !value.includes('\0')) this.eventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
  }

  private dispatch(): void {
    const hasData = this.dataLines.length > 0;
    const event: SseEvent = { event: this.eventName || 'message', data: this.dataLines.join('\n') };
    if (this.eventId !== undefined) event.id = this.eventId;
    if (this.retry !== undefined) event.retry = this.retry;
    this.dataLines = [];
    this.eventName = '';
    this.eventId = undefined;
    this.retry = undefined;
    this.eventBytes = 0;
    // An event without data is still forwarded by re-serializing callers when it carries an id or retry.
    if (hasData || event.id !== undefined || event.retry !== undefined) this.onEvent(event);
  }
}

/** The wire form of one event (what an SSE server writes). */
export function serializeSseEvent(event: SseEvent): string {
  let text = '';
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.retry !== undefined) text += `retry: ${event.retry}\n`;
  if (event.event && event.event !== 'message') text += `event: ${event.event}\n`;
  for (const line of event.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}
