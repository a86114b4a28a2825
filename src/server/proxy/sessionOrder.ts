// A session's requests reach the upstream in the order the proxy received them where it matters:
// an SDK client opens its standalone GET stream and, at once, sends its next request. The GET
// travels on the stream pool (often a new connection), the request on a warm one, so the request
// used to overtake the GET by 1–11 ms — and a server that sent a question on the GET stream while
// handling it (elicitation, sampling not tied to the request) found no stream: the SDK drops such a
// message. So a request of a session waits until the GETs of that session received before it
// have their upstream's answer headers (the stream exists upstream then).
//
// The wait is bounded: an upstream that holds a GET's headers back until its first event would
// otherwise hold the session's requests. Past `maxWaitMs` the GET no longer holds anyone.
export const STREAM_ORDER_MAX_WAIT_MS = 3_000;

interface OpeningStream {
  opened: Promise<void>;
}

export class SessionOrder {
  private readonly opening = new Map<string, Set<OpeningStream>>();

  constructor(private readonly maxWaitMs = STREAM_ORDER_MAX_WAIT_MS) {}

  /** The order key of a session: its proxy URL and the session id the agent holds. */
  static key(proxyKey: string, sessionId: string): string {
    return `${proxyKey}\u0001${sessionId}`;
  }

  /**
   * A GET stream of the session is on its way (call on its arrival, before any await). Returns
   * the function that says it is open upstream (or failed, or gave up): idempotent.
   */
  streamOpening(key: string): () => void {
    let markOpened = (): void => undefined;
    const stream: OpeningStream = { opened: new Promise<void>((resolve) => (markOpened = resolve)) };
    let streams = this.opening.get(key);
    if (!streams) {
      streams = new Set();
      this.opening.set(key, streams);
    }
    streams.add(stream);
    const timer = setTimeout(() => done(), this.maxWaitMs);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      markOpened();
      const current = this.opening.get(key);
      if (!current?.delete(stream)) return;
      if (current.size === 0) this.opening.delete(key);
    };
    return done;
  }

  /**
   * What a request of the session must wait for before it is forwarded (call on its arrival,
   * before any await): undefined when no GET of the session is on its way — the usual case.
   */
  earlierStreams(key: string): Promise<void> | undefined {
    const streams = this.opening.get(key);
    if (!streams) return undefined;
    return Promise.all([...streams].map((stream) => stream.opened)).then(() => undefined);
  }

  /** Sessions with a GET on its way (for tests and health). */
  get pending(): number {
    return this.opening.size;
  }
}
