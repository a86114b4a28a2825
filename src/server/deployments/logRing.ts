import { DEPLOYMENT_LOG_RING, type DeploymentLogLine, type LogStream } from '../../contract/deployments';

// The last lines a deployment wrote (stderr, stray stdout, and the supervisor's own notes),
// bounded by count and by bytes, whichever is reached first: a chatty program costs at most
// DEPLOYMENT_LOG_RING.maxBytes of memory. Lines longer than MAX_LINE_CHARS are cut.
const MAX_LINE_CHARS = 16_384;

export interface LogQuery {
  /** Lines logged strictly after this time (ms since the epoch). */
  sinceMs?: number;
  /** Lines with a seq below this. */
  beforeSeq?: number;
  limit: number;
}

export class LogRing {
  private lines: DeploymentLogLine[] = [];
  private head = 0;
  private bytes = 0;
  private nextSeq = 1;

  constructor(
    private readonly maxLines: number = DEPLOYMENT_LOG_RING.maxLines,
    private readonly maxBytes: number = DEPLOYMENT_LOG_RING.maxBytes,
  ) {}

  append(stream: LogStream, text: string, at = new Date()): DeploymentLogLine {
    const cut = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}… (cut)` : text;
    const line: DeploymentLogLine = { seq: this.nextSeq++, at: at.toISOString(), stream, text: cut };
    this.lines.push(line);
    this.bytes += sizeOf(line);
    while (this.size > this.maxLines || (this.bytes > this.maxBytes && this.size > 1)) {
      this.bytes -= sizeOf(this.lines[this.head]);
      this.head += 1;
    }
    // Compact now and then, not per line.
    if (this.head > 1024 && this.head * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.head);
      this.head = 0;
    }
    return line;
  }

  get size(): number {
    return this.lines.length - this.head;
  }

  get byteSize(): number {
    return this.bytes;
  }

  /** The last `limit` lines matching the query, oldest first, and whether earlier ones exist. */
  query({ sinceMs, beforeSeq, limit }: LogQuery): { lines: DeploymentLogLine[]; hasEarlier: boolean } {
    let end = this.lines.length;
    if (beforeSeq !== undefined) {
      while (end > this.head && this.lines[end - 1].seq >= beforeSeq) end -= 1;
    }
    let start = Math.max(this.head, end - limit);
    if (sinceMs !== undefined) {
      let first = end;
      while (first > start && Date.parse(this.lines[first - 1].at) > sinceMs) first -= 1;
      start = first;
    }
    const lines = this.lines.slice(start, end);
    const hasEarlier = start > this.head && (sinceMs === undefined || Date.parse(this.lines[start - 1].at) > sinceMs);
    return { lines, hasEarlier };
  }

  /** The last n lines of one stream (kept in the status when a program crashes). */
  tail(stream: LogStream, n: number): string[] {
    const out: string[] = [];
    for (let i = this.lines.length - 1; i >= this.head && out.length < n; i--) {
      if (this.lines[i].stream === stream) out.push(this.lines[i].text);
    }
    return out.reverse();
  }
}

function sizeOf(line: DeploymentLogLine): number {
  return line.text.length * 2 + 64;
}
