// Progress of a streamed export (contract/dataExport.ts) from the pieces of its body as they
// arrive: the header line announces the sessions to come, each session line is one more done.
// Lines are cut across pieces, so the unfinished end of a piece waits for the next.

export interface ExportProgress {
  /** Sessions the export holds (null until the header line has arrived). */
  sessionsTotal: number | null;
  sessionsDone: number;
  lines: number;
  /** Characters received. */
  received: number;
  /** The end line has arrived: the download is whole. */
  complete: boolean;
}

export const NO_PROGRESS: ExportProgress = {
  sessionsTotal: null,
  sessionsDone: 0,
  lines: 0,
  received: 0,
  complete: false,
};

export class ExportProgressReader {
  private carry = '';
  private progress: ExportProgress = NO_PROGRESS;

  /** What the pieces read so far say. */
  get current(): ExportProgress {
    return this.progress;
  }

  read(chunk: string): ExportProgress {
    const parts = (this.carry + chunk).split('\n');
    this.carry = parts.pop() ?? '';
    let { sessionsTotal, sessionsDone, lines, complete } = this.progress;
    for (const line of parts) {
      if (line === '') continue;
      lines++;
      // Every line starts with its type (the server writes `type` first).
      if (line.startsWith('{"type":"export"'))
        sessionsTotal = (JSON.parse(line) as { sessions?: number }).sessions ?? null;
      else if (line.startsWith('{"type":"session"')) sessionsDone++;
      else if (line.startsWith('{"type":"end"')) complete = true;
    }
    this.progress = { sessionsTotal, sessionsDone, lines, received: this.progress.received + chunk.length, complete };
    return this.progress;
  }
}
