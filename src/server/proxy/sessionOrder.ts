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
//
// That alone cannot help when the request reaches the proxy *before* its GET: the SDK client starts
// both at once on two connections, and through the proxy the call was seen about 10 ms before the
// GET (the conformance suite's sampling scenario lost its question in 3 of 3 runs). So an agent
// that opened its GET right after `notifications/initialized` in an earlier session is expected to
// do it again: once its `notifications/initialized` is forwarded, the session's requests also wait
// for the GET to arrive, for at most `expectWaitMs`. Agents are told apart by proxy URL and
// fingerprint (credential, else address and user agent); one seen not to open a GET is not held.
//
// An agent the proxy has not seen initialize yet (its first session, or any after a restart) is
// expected to open its GET when its `initialize` declared a capability that lets the server ask it
// something (sampling, elicitation, roots): only such a client can lose a question on that stream,
// and every SDK client opens one. A client that declares one and never opens a GET pays the wait
// once; one that declares none is never held.
export const STREAM_ORDER_MAX_WAIT_MS = 3_000;
/** How long a session of an agent that opens its GET after initializing waits for that GET (TOOLSCOPE_STREAM_EXPECT_MS). */
export const STREAM_EXPECT_MAX_WAIT_MS = 1_000;
/** Agents remembered (the oldest is forgotten first). */
const MAX_AGENTS = 10_000;

interface OpeningStream {
  opened: Promise<void>;
}

/** A session that has just initialized: its GET may be on its way from the agent. */
interface ExpectedStream {
  agent: string;
  /** Whether requests wait for the GET (the agent opened one after initializing before). */
  holds: boolean;
  /** Resolves when the GET arrives or the wait is over. */
  arrived: Promise<void>;
  end(): void;
}

export class SessionOrder {
  private readonly opening = new Map<string, Set<OpeningStream>>();
  private readonly expected = new Map<string, ExpectedStream>();
  /** Per agent: whether it opened a GET right after initializing, last time it initialized. */
  private readonly opensStreamAfterInit = new Map<string, boolean>();
  /** Per agent never seen initialize: whether its `initialize` declared that the server may ask it something. */
  private readonly asksOfClient = new Map<string, boolean>();

  constructor(
    private readonly maxWaitMs = STREAM_ORDER_MAX_WAIT_MS,
    private readonly expectWaitMs = STREAM_EXPECT_MAX_WAIT_MS,
  ) {}

  /** The agent key of an exchange: its proxy URL and the agent's fingerprint (headers.ts). */
  static agent(proxyKey: string, fingerprint: string): string {
    return `${proxyKey}\u0001${fingerprint}`;
  }

  /**
   * An `initialize` of the agent is being forwarded. `serverMayAsk`: its capabilities include
   * sampling, elicitation or roots (see `declaresServerRequests`). Only consulted while nothing is
   * known of the agent: what it did last time says more than what it declares.
   */
  initializeSent(agent: string, serverMayAsk: boolean): void {
    if (this.opensStreamAfterInit.has(agent)) return;
    this.asksOfClient.delete(agent);
    this.asksOfClient.set(agent, serverMayAsk);
    if (this.asksOfClient.size > MAX_AGENTS) this.asksOfClient.delete(this.asksOfClient.keys().next().value as string);
  }

  /**
   * The session's `notifications/initialized` is being forwarded: its agent may open the GET stream
   * next. Watched for every agent (to learn whether it does); later requests of the session wait
   * for that GET only when the agent did it before.
   */
  initializing(key: string, agent: string): void {
    this.expected.get(key)?.end();
    let arrive = (): void => undefined;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const timer = setTimeout(() => {
      this.remember(agent, false);
      expectation.end();
    }, this.expectWaitMs);
    timer.unref();
    const expectation: ExpectedStream = {
      agent,
      holds: this.opensStreamAfterInit.get(agent) ?? this.asksOfClient.get(agent) === true,
      arrived,
      end: () => {
        clearTimeout(timer);
        arrive();
        if (this.expected.get(key) === expectation) this.expected.delete(key);
      },
    };
    this.expected.set(key, expectation);
  }

  private remember(agent: string, opens: boolean): void {
    this.asksOfClient.delete(agent);
    this.opensStreamAfterInit.delete(agent);
    this.opensStreamAfterInit.set(agent, opens);
    if (this.opensStreamAfterInit.size > MAX_AGENTS)
      this.opensStreamAfterInit.delete(this.opensStreamAfterInit.keys().next().value as string);
  }

  /** The order key of a session: its proxy URL and the session id the agent holds. */
  static key(proxyKey: string, sessionId: string): string {
    return `${proxyKey}\u0001${sessionId}`;
  }

  /**
   * A GET stream of the session is on its way (call on its arrival, before any await). Returns
   * the function that says it is open upstream (or failed, or gave up): idempotent.
   */
  streamOpening(key: string): () => void {
    const expectation = this.expected.get(key);
    if (expectation) {
      this.remember(expectation.agent, true);
      expectation.end();
    }
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
    const expectation = this.expected.get(key);
    // The GET expected arrives after this request: once it has, wait for it like one received before.
    if (expectation?.holds) return expectation.arrived.then(() => this.openingStreams(key));
    return this.openingStreams(key);
  }

  private openingStreams(key: string): Promise<void> | undefined {
    const streams = this.opening.get(key);
    if (!streams) return undefined;
    return Promise.all([...streams].map((stream) => stream.opened)).then(() => undefined);
  }

  /** Sessions with a GET on its way or expected (0: no request waits for any; tests and health). */
  get pending(): number {
    return this.opening.size + this.expected.size;
  }
}

/**
 * Whether an `initialize` request's client capabilities let the server send it requests
 * (sampling, elicitation, roots: MCP "Client capabilities"), which it may do on the GET stream.
 */
export function declaresServerRequests(params: unknown): boolean {
  if (typeof params !== 'object' || params === null) return false;
  const capabilities = (params as { capabilities?: unknown }).capabilities;
  if (typeof capabilities !== 'object' || capabilities === null) return false;
  return ['sampling', 'elicitation', 'roots'].some((name) => name in capabilities);
}
